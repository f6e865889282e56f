// Internal to common/sql: the recursive-descent parser shared by
// parser.cc (infrastructure, dispatch, shared clauses), parser_ddl.cc (CREATE,
// DROP, ALTER), parser_misc.cc (INSERT, SHOW, DESCRIBE, statistics, session
// statements) and parser_expr.cc (SELECT, expressions, types).
//
// A Parser owns the token vector of one input and is used by one thread once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/sql/ast.h"
#include "common/sql/lexer.h"
#include "common/util/result.h"

namespace ics::sql::internal {

using StmtPtr = std::unique_ptr<Statement>;

class Parser {
 public:
  Parser(std::string_view sql, std::vector<Token> tokens) : sql_(sql), tokens_(std::move(tokens)) {}

  // `single`: exactly one statement (ParseStatement); else a script.
  Result<std::vector<StmtPtr>> ParseAll(bool single);
  Result<ExprPtr> ParseStandaloneExpr();
  Result<std::string> ParseStandaloneType();

 private:
  // ---- tokens (parser.cc) ----
  const Token& Peek(size_t ahead = 0) const;
  const Token& Consume();
  bool AtEnd() const { return Peek().kind == TokenKind::kEnd; }
  bool AtKeyword(std::string_view kw, size_t ahead = 0) const { return Peek(ahead).IsKeyword(kw); }
  bool AtPunct(std::string_view p, size_t ahead = 0) const { return Peek(ahead).IsPunct(p); }
  bool AcceptKeyword(std::string_view kw);
  bool AcceptPunct(std::string_view p);
  // "expected <KW> but found ..." unless the next token is the keyword.
  [[nodiscard]] Status ExpectKeyword(std::string_view kw);
  [[nodiscard]] Status ExpectPunct(std::string_view p);
  // Accepts IF NOT EXISTS / IF EXISTS; errors on a partial match.
  Result<bool> AcceptIfNotExists();
  Result<bool> AcceptIfExists();
  // True if the next token can be an identifier (unreserved word or `quoted`).
  bool AtIdentifier(size_t ahead = 0) const;
  Status ErrorAt(const Token& tok, std::string_view msg) const;
  // "expected <what> but found <next token>".
  Status Expected(std::string_view what) const;
  // The source text of a token.
  std::string_view Raw(const Token& tok) const { return sql_.substr(tok.offset, tok.length); }

  // ---- shared clauses (parser.cc) ----
  Result<std::string> ParseIdentifier(std::string_view what);
  Result<TableName> ParseTableName(std::string_view what);
  Result<std::string> ParseString(std::string_view what);
  Result<Literal> ParseNumber(bool negative);
  Result<Literal> ParseLiteralValue();
  // PARTITION keyword already consumed: "(k=v, ...)"; `allow_dynamic` permits bare k.
  Result<PartitionSpec> ParsePartitionSpec(bool allow_dynamic);
  Result<std::optional<PartitionSpec>> ParseOptionalPartition();
  Result<Properties> ParseProperties();
  Result<std::vector<std::string>> ParsePropertyKeys();  // ('k', ...)
  // "(col type [COMMENT 'c'], ...)"; `allow_empty` accepts "()" for the analyzer to report.
  Result<std::vector<ColumnDef>> ParseColumnDefs(bool allow_empty);
  Result<ColumnDef> ParseColumnDef();
  Result<std::vector<std::string>> ParseIdentifierList(std::string_view what);
  Result<FileFormat> ParseFileFormat();
  Result<Owner> ParseOwner();
  Result<std::optional<std::string>> ParseOptionalComment();

  // ---- statements ----
  Result<StmtPtr> ParseOne();
  Result<StmtPtr> ParseCreate();                    // parser_ddl.cc
  Result<StmtPtr> ParseCreateTable(bool external);  // parser_ddl.cc
  Result<StmtPtr> ParseCreateView();                // parser_ddl.cc
  Result<StmtPtr> ParseDrop();                      // parser_ddl.cc
  Result<StmtPtr> ParseAlter();                     // parser_ddl.cc
  Result<StmtPtr> ParseAlterTable();                // parser_ddl.cc
  Result<StmtPtr> ParseAlterTableSet(const TableName& table,
                                     std::optional<PartitionSpec> partition);  // parser_ddl.cc
  Result<std::string> ParseQueryText();                                        // parser_ddl.cc
  Result<StmtPtr> ParseTruncate();                                             // parser_misc.cc
  Result<StmtPtr> ParseComputeStats();                                         // parser_misc.cc
  Result<StmtPtr> ParseDropStats();                                            // parser_misc.cc
  Result<StmtPtr> ParseInsert();                                               // parser_misc.cc
  Result<StmtPtr> ParseShow();                                                 // parser_misc.cc
  Result<StmtPtr> ParseDescribe();                                             // parser_misc.cc
  Result<StmtPtr> ParseInvalidate();                                           // parser_misc.cc
  Result<StmtPtr> ParseRefresh();                                              // parser_misc.cc
  Result<StmtPtr> ParseUse();                                                  // parser_misc.cc
  Result<StmtPtr> ParseSet();                                                  // parser_misc.cc
  Result<StmtPtr> ParseCommentOn();                                            // parser_misc.cc
  Result<StmtPtr> ParseExplain();                                              // parser_expr.cc
  Result<std::unique_ptr<SelectStmt>> ParseSelect();                           // parser_expr.cc
  Result<int64_t> ParseSignedInteger(std::string_view clause);                 // parser_expr.cc

  // ---- expressions and types (parser_expr.cc) ----
  Result<ExprPtr> ParseExpr();
  Result<ExprPtr> ParseOr();
  Result<ExprPtr> ParseAnd();
  Result<ExprPtr> ParseNot();
  Result<ExprPtr> ParsePredicate();
  Result<ExprPtr> ParseAdditive();
  Result<ExprPtr> ParseMultiplicative();
  Result<ExprPtr> ParseUnary();
  Result<ExprPtr> ParsePrimary();
  Result<ExprPtr> ParseNameOrCall();
  Result<std::string> ParseType(int depth);
  Result<std::string> ParseStructType(int depth);
  Result<int> ParseTypeParam(std::string_view what, int min, int max);
  // Counts nesting; errors past kMaxParseDepth.
  [[nodiscard]] Status EnterNesting();
  // Appends `child` to parent->children and raises parent->height; errors at
  // `at` (dropping `child`) if the tree would be higher than kMaxExprDepth.
  [[nodiscard]] Status AddChild(Expr* parent, ExprPtr child, const Token& at);
  // A `kind` node over lhs and rhs that starts where lhs does (binary operators).
  Result<ExprPtr> MakeBinary(ExprKind kind, const Token& op, ExprPtr lhs, ExprPtr rhs);
  void LeaveNesting() { --depth_; }

  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

ExprPtr MakeExpr(ExprKind kind, const Token& at);

}  // namespace ics::sql::internal
