import FuzzSupport

runFuzzer(fuzzNautilus)
