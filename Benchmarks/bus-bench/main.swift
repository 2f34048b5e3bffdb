print("bus-bench")
