// Statement splitting for the shell: finds the ';' that end statements,
// ignoring those inside 'strings', "strings", `identifiers`, -- line comments
// and /* block comments */ (backslash escapes inside strings are honoured).
// No other syntax is checked, so any text splits; ParseStatement each piece.
//
// Thread-safety: stateless functions; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/util/result.h"

namespace ics::sql {

// The text of each statement of `sql`, without its ';' and surrounding
// whitespace; pieces holding only whitespace and comments are dropped.
// kAnalysisError "Syntax error at line L, column C: unterminated ..." if the
// text ends inside a string, quoted identifier or block comment.
Result<std::vector<std::string>> SplitStatements(std::string_view sql);

// For line-by-line input: true if `text` holds at least one statement and
// ends with a ';' that terminates it (outside quotes and comments), apart
// from trailing whitespace and comments. "select 1;" and "a; -- x" are
// complete; "select ';" and "select 1" are not.
bool IsStatementComplete(std::string_view text);

}  // namespace ics::sql
