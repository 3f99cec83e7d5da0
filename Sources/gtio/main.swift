print("gtio")
