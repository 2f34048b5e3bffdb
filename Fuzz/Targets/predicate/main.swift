import FuzzSupport

runFuzzer(fuzzPredicate)
