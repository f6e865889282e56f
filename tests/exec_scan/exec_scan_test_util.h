// Helpers shared by the ExecScan* tests.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "tests/util/temp_dir.h"

namespace ics::coord::testing {

using ::ics::testing::TempDir;

}  // namespace ics::coord::testing

#define ASSERT_RESULT_OK(expr)                                 \
  do {                                                    \
    const auto& _st = (expr);                             \
    ASSERT_TRUE(_st.ok()) << _st.status().ToString();     \
  } while (false)
