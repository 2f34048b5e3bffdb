import FuzzSupport

runFuzzer(fuzzMIMECache)
