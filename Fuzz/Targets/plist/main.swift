import FuzzSupport

runFuzzer(fuzzPropertyList)
