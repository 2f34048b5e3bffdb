import FuzzSupport

runFuzzer(fuzzDictionaryRule)
