/* analyzer/src/report/sarif_limits.h — what tagcheck's SARIF promises about sizes and names,
 * shared by the writer (sarif.c) and the shard merger (merge.c): GitHub code scanning's
 * ingestion limits (beyond them GitHub drops data or rejects the upload), the tool's
 * identity, and where rule documentation lives. */
#ifndef TC_SARIF_LIMITS_H
#define TC_SARIF_LIMITS_H

#define TC_SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define TC_SARIF_VERSION "2.1.0"
#define TC_SARIF_SRCROOT "%SRCROOT%"

#ifndef TC_VERSION
#define TC_VERSION "0.0.0"
#endif
#ifndef TC_INFORMATION_URI
#define TC_INFORMATION_URI "https://github.com/tagcheck/tagcheck"
#endif
/* Rule help pages: TC_RULES_HELP_URI "#" rule-id. */
#ifndef TC_RULES_HELP_URI
#define TC_RULES_HELP_URI TC_INFORMATION_URI "/blob/main/docs/ci.md"
#endif

/* GitHub's limits per run and per result. Truncation keeps the first items in report order
   (deterministic) and says so in a toolExecutionNotification. */
#define TC_SARIF_MAX_RESULTS 25000
#define TC_SARIF_MAX_RULES 25000
#define TC_SARIF_MAX_RELATED_LOCATIONS 1000
#define TC_SARIF_MAX_THREADFLOW_LOCATIONS 10000
/* Embedded links in a result's message (one per note, the rest stay in relatedLocations). */
#define TC_SARIF_MAX_MESSAGE_LINKS 10
/* Message texts longer than this (bytes) are cut, ending in "…". */
#define TC_SARIF_MAX_MESSAGE_BYTES 32768

#endif /* TC_SARIF_LIMITS_H */
