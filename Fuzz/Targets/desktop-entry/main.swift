import FuzzSupport

runFuzzer(fuzzDesktopEntry)
