import FuzzSupport

runFuzzer(fuzzDBusItems)
