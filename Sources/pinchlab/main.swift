print("pinchlab")
