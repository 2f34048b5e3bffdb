print("xdg-share-services")
