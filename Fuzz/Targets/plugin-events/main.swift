import FuzzSupport

runFuzzer(fuzzPluginEvents)
