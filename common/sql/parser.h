// SQL front end of the coordinator: parses Impala-dialect statement text into
// the typed AST of common/sql/ast.h.
//
// Grammar (keywords case-insensitive; [] optional, | alternatives):
//   CREATE DATABASE|SCHEMA [IF NOT EXISTS] db [COMMENT 'c'] [LOCATION 'p']
//   DROP DATABASE|SCHEMA [IF EXISTS] db [CASCADE|RESTRICT]
//   ALTER DATABASE db SET OWNER USER|ROLE name
//   CREATE [EXTERNAL] TABLE [IF NOT EXISTS] [db.]t (col type [COMMENT 'c'], ...)
//     [PARTITIONED BY (col type [COMMENT 'c'], ...)] [COMMENT 'c']
//     [ROW FORMAT DELIMITED [FIELDS TERMINATED BY 'x'] [ESCAPED BY 'x']
//                           [LINES TERMINATED BY 'x']]
//     [STORED AS fmt] [LOCATION 'p'] [TBLPROPERTIES ('k'='v', ...)]
//   CREATE [EXTERNAL] TABLE [IF NOT EXISTS] t LIKE src [COMMENT 'c'] [STORED AS fmt]
//     [LOCATION 'p']
//   CREATE VIEW [IF NOT EXISTS] v [(c [COMMENT 'c'], ...)] [COMMENT 'c'] AS <query text>
//   ALTER VIEW v AS <query text>;  DROP VIEW [IF EXISTS] v;  DROP TABLE [IF EXISTS] t [PURGE]
//   ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (k=v, ...) [LOCATION 'p'] [PARTITION ...]...
//   ALTER TABLE t DROP [IF EXISTS] PARTITION (k=v, ...) [, PARTITION (...)]... [PURGE]
//   ALTER TABLE t ADD [IF NOT EXISTS] COLUMNS (col type, ...) | ADD COLUMN [IF NOT EXISTS] col type
//   ALTER TABLE t REPLACE COLUMNS (col type, ...)
//   ALTER TABLE t DROP [COLUMN] c;  ALTER TABLE t CHANGE [COLUMN] old new type [COMMENT 'c']
//   ALTER TABLE t RENAME TO [db.]t2;  ALTER TABLE t RECOVER PARTITIONS
//   ALTER TABLE t [PARTITION (...)] SET TBLPROPERTIES ('k'='v', ...) | SET LOCATION 'p'
//                                   | SET FILEFORMAT fmt
//   ALTER TABLE t UNSET TBLPROPERTIES [IF EXISTS] ('k', ...);  ALTER TABLE t SET OWNER USER|ROLE x
//   TRUNCATE [TABLE] [IF EXISTS] t
//   COMPUTE [INCREMENTAL] STATS t [(col, ...)] [PARTITION (...)]
//   DROP [INCREMENTAL] STATS t [PARTITION (...)]
//   INSERT INTO|OVERWRITE [TABLE] t [(col, ...)] [PARTITION (k=v | k, ...)]
//     VALUES (expr, ...), ...
//   SHOW DATABASES|SCHEMAS [[LIKE] 'p'];  SHOW TABLES|FUNCTIONS [IN db] [[LIKE] 'p']
//   SHOW PARTITIONS t;  SHOW FILES IN t [PARTITION (...)];  SHOW TABLE STATS t
//   SHOW COLUMN STATS t;  SHOW CREATE TABLE t;  SHOW CREATE VIEW v
//   DESCRIBE [FORMATTED|EXTENDED] [db.]t;  DESCRIBE DATABASE [FORMATTED|EXTENDED] db
//   [EXPLAIN] SELECT [DISTINCT] item, ... [FROM [db.]t [[AS] alias]] [WHERE e]
//     [GROUP BY e, ...] [HAVING e] [ORDER BY e [ASC|DESC], ...] [LIMIT n [OFFSET m]]
//   INVALIDATE METADATA [t];  REFRESH t [PARTITION (...)]...;  USE db
//   SET [ALL | name = identifier|number|'string'];  COMMENT ON DATABASE db|TABLE t|VIEW v|
//     COLUMN [db.]t.c IS 'c'|NULL
// Expressions, loosest first: OR (||), AND (&&), NOT, predicates (= != <> < <= > >=,
// [NOT] IN (list), [NOT] BETWEEN a AND b, IS [NOT] NULL, [NOT] LIKE), + -, * / %,
// unary -, primaries (literals incl. DATE 'yyyy-mm-dd', CAST(e AS type), [t.]col,
// f(args) / f(*) / f(DISTINCT args), parentheses).
// Partition values (k=v) are literals: numbers (signed), strings, TRUE/FALSE, NULL, DATE.
//
// Errors are kAnalysisError statuses "Syntax error at line L, column C: ..." that
// point at the offending token, e.g. "expected ')' but found 'FROM'",
// "unknown statement 'FOO'", "unterminated string literal".
//
// Depth limits, so that no input can overflow the stack, neither the parser's
// nor that of a later recursive walk of the tree (Expr::ToSql, the
// coordinator's analysis and partition pruning, ~Expr):
//   - the parser's own recursion (parentheses, NOT/- chains, function
//     arguments, CAST operands, IN-list items) is at most kMaxParseDepth
//     levels: "nesting too deep (more than 200 levels)";
//   - every expression tree it returns is at most kMaxExprDepth nodes high.
//     Binary operators are left-associative loops that build left-deep trees,
//     so a chain of n operators (a + b + ..., a AND b AND ...) is n levels
//     high: "expression nested too deeply (more than 1000 levels; ...)";
//   - ARRAY/MAP/STRUCT types nest at most kMaxTypeDepth levels.
// Long flat lists (IN lists, function arguments, select items, VALUES rows,
// struct fields, the statements of a script) are parsed iteratively and have
// no limit. Any input returns in time linear in its length.
//
// Thread-safety: stateless functions; safe from any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/sql/ast.h"
#include "common/util/result.h"

namespace ics::sql {

// Deepest recursion of the parser itself (see "Depth limits" above).
inline constexpr int kMaxParseDepth = 200;
// Highest expression tree (Expr::height) the parser returns, counting every
// node: Impala's expression depth limit, and the partition pruner's. Code
// that walks a parsed Expr recursively may rely on it.
inline constexpr int kMaxExprDepth = 1000;
// Deepest ARRAY/MAP/STRUCT nesting of a column type (Impala's limit).
inline constexpr int kMaxTypeDepth = 100;

// Parses exactly one statement; a trailing ';' is allowed.
Result<std::unique_ptr<Statement>> ParseStatement(std::string_view sql);

// Parses ';'-separated statements (empty ones are skipped; the last ';' is optional).
Result<std::vector<std::unique_ptr<Statement>>> ParseScript(std::string_view sql);

// Parses a standalone expression, e.g. "year = 2024 AND month IN (1, 2)".
Result<ExprPtr> ParseExpression(std::string_view sql);

// Parses a column type and returns its canonical spelling ("DECIMAL(10, 2)" ->
// "decimal(10,2)", "Integer" -> "int", "decimal" -> "decimal(10,0)").
Result<std::string> ParseColumnType(std::string_view sql);

}  // namespace ics::sql
