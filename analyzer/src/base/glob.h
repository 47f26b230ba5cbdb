/* analyzer/src/base/glob.h — path globs for the configuration's "exclude" list: a star
 * and "?" match within one path segment, "[abc]" / "[!a-z]" are classes, and a double star
 * matches across segments (see docs/ci.md for examples). */
#ifndef TC_GLOB_H
#define TC_GLOB_H

/* 1 when the whole of path matches pattern, else 0. */
int tc_glob_match(const char *pattern, const char *path);
/* Matches the class "[...]" at *pp (its '[') against c and advances *pp past it: 1 or 0, or -1
   when it is not a valid class (then '[' is a literal and *pp stays). */
int tc_glob_class(const char **pp, char c);

#endif /* TC_GLOB_H */
