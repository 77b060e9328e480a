/* A header over Debian's zlib (zlib1g-dev), for the gzip content coding.
 *
 * deflateInit2 and inflateInit2 are function-like macros (they pass ZLIB_VERSION and
 * sizeof(z_stream) to deflateInit2_ / inflateInit2_), which Swift cannot call; these static inline
 * wrappers give them fixed signatures. windowBits 31 (15 + 16) asks for the gzip wrapper. */
#ifndef SEGUE_CZLIB_SHIM_H
#define SEGUE_CZLIB_SHIM_H
#include <zlib.h>

static inline int segue_deflate_init2(z_streamp stream, int level, int method, int windowBits, int memLevel,
                                      int strategy) {
  return deflateInit2(stream, level, method, windowBits, memLevel, strategy);
}

static inline int segue_inflate_init2(z_streamp stream, int windowBits) {
  return inflateInit2(stream, windowBits);
}
#endif
