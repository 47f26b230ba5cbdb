// tests/wholedb/reach/plain.c — a program that never names the dt API (only C library
// functions the rules model: malloc, memcpy, free): nothing to analyze.
#include <stdlib.h>
#include <string.h>

int main(void) {
  float src[4] = {1, 2, 3, 4};
  float *dst = malloc(sizeof src);
  if (!dst) return 1;
  memcpy(dst, src, sizeof src);
  int r = dst[3] > 3.5f ? 0 : 1;
  free(dst);
  return r;
}
