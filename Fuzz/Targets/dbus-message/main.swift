import FuzzSupport

runFuzzer(fuzzDBusMessage)
