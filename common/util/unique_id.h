// Random TUniqueIds (registration ids, catalog_service_id, statestore_id)
// and their text form "hi:lo" in 16-digit hex, as Impala prints them.
//
// Thread-safety: safe from any thread (each thread has its own generator,
// seeded from the OS).
#pragma once

#include <string>

#include "Types_types.h"

namespace ics {

impala::TUniqueId GenerateUniqueId();

std::string PrintId(const impala::TUniqueId& id);

}  // namespace ics
