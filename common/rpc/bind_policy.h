// Which addresses a server port may bind (secure by default).
//
// A plaintext port binds loopback only. Binding anything else — a wildcard
// ("0.0.0.0", "::", empty), a routable address, or a name that resolves to
// one — needs TLS on that port, or the operator's explicit
// allow_plaintext_remote (then a warning is logged once per port).
#pragma once

#include <string>

#include "common/util/status.h"

namespace ics {

// True when every address `host` names is a loopback address (127/8, ::1;
// "localhost" resolves to them). Wildcards and unresolvable names are not.
bool IsLoopbackHost(const std::string& host);

// OK when `server` may bind `host`; otherwise an error that says which flag
// would allow it.
[[nodiscard]] Status CheckBindAllowed(const std::string& server, const std::string& host, bool tls,
                                      bool allow_plaintext_remote);

// The address a daemon binds when its listen-host flag is empty: every
// interface with TLS, loopback without.
std::string DefaultBindHost(bool tls);

}  // namespace ics
