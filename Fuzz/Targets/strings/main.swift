import FuzzSupport

runFuzzer(fuzzStrings)
