/* analyzer/src/driver/tool_id.h — which build of tagcheck is running, for the analysis cache's
 * keys: a cached unit or result written by another build (a rebuilt analyzer of the same
 * version) is not taken for this one's. */
#ifndef TC_TOOL_ID_H
#define TC_TOOL_ID_H

#include <stdint.h>

/* A hash of the version and of the running executable's size and modification time (the
   version alone where the executable cannot be found). */
uint64_t tc_tool_identity(void);

#endif /* TC_TOOL_ID_H */
