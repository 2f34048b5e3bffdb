// ShareKit: the library for writing share extensions in Swift. (Being written.)
