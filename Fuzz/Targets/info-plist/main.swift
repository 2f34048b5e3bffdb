import FuzzSupport

runFuzzer(fuzzInfoPlist)
