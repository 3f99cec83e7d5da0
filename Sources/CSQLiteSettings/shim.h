// Process-wide settings of the system's SQLite (libsqlite3-dev), the library GRDB opens its
// connections with. sqlite3_config is variadic, which Swift cannot call: these wrappers can.
#include <sqlite3.h>

// Turns SQLite's memory statistics off; SQLITE_MISUSE once the library is initialized (a
// connection opened), when it changes nothing.
static inline int gtio_sqlite_memory_statistics_off(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
