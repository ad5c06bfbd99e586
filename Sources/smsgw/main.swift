print("smsgw")
