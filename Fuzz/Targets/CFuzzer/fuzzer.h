#ifndef XDG_SHARE_CFUZZER_H
#define XDG_SHARE_CFUZZER_H
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver, for a program whose main is Swift's (SwiftPM links executables with
   main defined as the module's own entry point, so libFuzzer's main is not used). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));
#endif
