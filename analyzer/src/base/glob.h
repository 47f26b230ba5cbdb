/* analyzer/src/base/glob.h — path globs for the configuration's "exclude" list: a star
 * and "?" match within one path segment, "[abc]" / "[!a-z]" are classes, and a double star
 * matches across segments (see docs/ci.md for examples). */
#ifndef TC_GLOB_H
#define TC_GLOB_H

/* 1 when the whole of path matches pattern, else 0. */
int tc_glob_match(const char *pattern, const char *path);

#endif /* TC_GLOB_H */
