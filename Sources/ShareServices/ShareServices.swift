// The bundled share services. (Being written.)
