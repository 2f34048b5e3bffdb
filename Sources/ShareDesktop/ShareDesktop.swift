// File-manager integration. (Being written.)
