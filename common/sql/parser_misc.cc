// INSERT, SHOW, DESCRIBE, statistics, metadata and session statements (see
// parser.h for the grammar).
#include <utility>

#include "common/sql/parser_internal.h"

namespace ics::sql::internal {

Result<StmtPtr> Parser::ParseTruncate() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("truncate"));
  auto stmt = std::make_unique<TruncateStmt>();
  AcceptKeyword("table");
  ICS_ASSIGN_OR_RETURN(stmt->if_exists, AcceptIfExists());
  ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseComputeStats() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("compute"));
  auto stmt = std::make_unique<ComputeStatsStmt>();
  stmt->incremental = AcceptKeyword("incremental");
  ICS_RETURN_IF_ERROR(ExpectKeyword("stats"));
  ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  if (AtPunct("(")) {
    ICS_ASSIGN_OR_RETURN(stmt->columns, ParseIdentifierList("column name"));
  }
  ICS_ASSIGN_OR_RETURN(stmt->partition, ParseOptionalPartition());
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseDropStats() {
  // DROP already consumed.
  auto stmt = std::make_unique<DropStatsStmt>();
  stmt->incremental = AcceptKeyword("incremental");
  ICS_RETURN_IF_ERROR(ExpectKeyword("stats"));
  ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  ICS_ASSIGN_OR_RETURN(stmt->partition, ParseOptionalPartition());
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseInsert() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("insert"));
  auto stmt = std::make_unique<InsertStmt>();
  if (AcceptKeyword("overwrite")) {
    stmt->overwrite = true;
  } else if (!AcceptKeyword("into")) {
    return Expected("INTO or OVERWRITE");
  }
  AcceptKeyword("table");
  ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  if (AtPunct("(")) {
    ICS_ASSIGN_OR_RETURN(stmt->columns, ParseIdentifierList("column name"));
  }
  if (AcceptKeyword("partition")) {
    ICS_ASSIGN_OR_RETURN(stmt->partition, ParsePartitionSpec(true));
  }
  if (AtKeyword("select") || AtKeyword("with")) {
    return ErrorAt(Peek(), "INSERT ... SELECT is not supported; use INSERT ... VALUES");
  }
  ICS_RETURN_IF_ERROR(ExpectKeyword("values"));
  do {
    ICS_RETURN_IF_ERROR(ExpectPunct("("));
    std::vector<ExprPtr> row;
    do {
      ICS_ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
      row.push_back(std::move(value));
    } while (AcceptPunct(","));
    ICS_RETURN_IF_ERROR(ExpectPunct(")"));
    stmt->rows.push_back(std::move(row));
  } while (AcceptPunct(","));
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseShow() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("show"));
  auto stmt = std::make_unique<ShowStmt>();
  auto parse_pattern = [&]() -> Status {
    const bool like = AcceptKeyword("like");
    if (like || Peek().kind == TokenKind::kString) {
      ICS_ASSIGN_OR_RETURN(stmt->pattern, ParseString("a pattern string"));
    }
    return Status::OK();
  };
  if (AcceptKeyword("databases") || AcceptKeyword("schemas")) {
    stmt->what = ShowKind::kDatabases;
    ICS_RETURN_IF_ERROR(parse_pattern());
  } else if (AtKeyword("tables") || AtKeyword("functions")) {
    stmt->what = Consume().IsKeyword("tables") ? ShowKind::kTables : ShowKind::kFunctions;
    if (AcceptKeyword("in")) {
      ICS_ASSIGN_OR_RETURN(stmt->db, ParseIdentifier("database name"));
    }
    ICS_RETURN_IF_ERROR(parse_pattern());
  } else if (AcceptKeyword("partitions")) {
    stmt->what = ShowKind::kPartitions;
    ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  } else if (AcceptKeyword("files")) {
    stmt->what = ShowKind::kFiles;
    ICS_RETURN_IF_ERROR(ExpectKeyword("in"));
    ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
    ICS_ASSIGN_OR_RETURN(stmt->partition, ParseOptionalPartition());
  } else if (AcceptKeyword("table")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("stats"));
    stmt->what = ShowKind::kTableStats;
    ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  } else if (AcceptKeyword("column")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("stats"));
    stmt->what = ShowKind::kColumnStats;
    ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  } else if (AcceptKeyword("create")) {
    if (AcceptKeyword("table")) {
      stmt->what = ShowKind::kCreateTable;
    } else if (AcceptKeyword("view")) {
      stmt->what = ShowKind::kCreateView;
    } else {
      return Expected("TABLE or VIEW");
    }
    ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  } else {
    return Expected(
        "DATABASES, TABLES, FUNCTIONS, PARTITIONS, FILES, TABLE STATS, COLUMN STATS or CREATE");
  }
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseDescribe() {
  Consume();  // DESCRIBE or DESC
  auto parse_style = [&]() {
    // FORMATTED/EXTENDED are keywords only when a name follows.
    if ((AtKeyword("formatted") || AtKeyword("extended")) && AtIdentifier(1)) {
      return Consume().IsKeyword("formatted") ? DescribeStyle::kFormatted
                                              : DescribeStyle::kExtended;
    }
    return DescribeStyle::kMinimal;
  };
  if (AtKeyword("database") && AtIdentifier(1)) {
    Consume();
    auto stmt = std::make_unique<DescribeDatabaseStmt>();
    stmt->style = parse_style();
    ICS_ASSIGN_OR_RETURN(stmt->db, ParseIdentifier("database name"));
    return StmtPtr(std::move(stmt));
  }
  auto stmt = std::make_unique<DescribeStmt>();
  stmt->style = parse_style();
  ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseInvalidate() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("invalidate"));
  ICS_RETURN_IF_ERROR(ExpectKeyword("metadata"));
  auto stmt = std::make_unique<InvalidateMetadataStmt>();
  if (AtIdentifier()) {
    ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  }
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseRefresh() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("refresh"));
  auto stmt = std::make_unique<RefreshStmt>();
  ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  while (AcceptKeyword("partition")) {
    ICS_ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionSpec(false));
    stmt->partitions.push_back(std::move(spec));
  }
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseUse() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("use"));
  auto stmt = std::make_unique<UseStmt>();
  ICS_ASSIGN_OR_RETURN(stmt->db, ParseIdentifier("database name"));
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseSet() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("set"));
  auto stmt = std::make_unique<SetStmt>();
  if (AtEnd() || AtPunct(";")) return StmtPtr(std::move(stmt));
  if (AcceptKeyword("all")) {
    stmt->show_all = true;
    return StmtPtr(std::move(stmt));
  }
  // Option names are words (reserved ones too) joined by dots: SET a.b.c=1.
  do {
    const Token& tok = Peek();
    if (tok.kind != TokenKind::kIdentifier && tok.kind != TokenKind::kQuotedIdentifier) {
      return Expected("an option name");
    }
    if (!stmt->name.empty()) stmt->name += ".";
    stmt->name += Consume().value;
  } while (AcceptPunct("."));
  ICS_RETURN_IF_ERROR(ExpectPunct("="));
  const Token& tok = Peek();
  switch (tok.kind) {
    case TokenKind::kString:
      stmt->value = Consume().value;
      break;
    case TokenKind::kIdentifier:
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
      stmt->value = std::string(Raw(Consume()));
      break;
    case TokenKind::kPunct:
      if ((tok.IsPunct("-") || tok.IsPunct("+")) &&
          (Peek(1).kind == TokenKind::kInteger || Peek(1).kind == TokenKind::kDecimal)) {
        const bool negative = Consume().IsPunct("-");
        stmt->value = (negative ? "-" : "") + std::string(Raw(Consume()));
        break;
      }
      return Expected("an option value");
    default:
      return Expected("an option value");
  }
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseCommentOn() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("comment"));
  ICS_RETURN_IF_ERROR(ExpectKeyword("on"));
  auto stmt = std::make_unique<CommentOnStmt>();
  if (AcceptKeyword("database") || AcceptKeyword("schema")) {
    stmt->target = CommentTarget::kDatabase;
    ICS_ASSIGN_OR_RETURN(stmt->db, ParseIdentifier("database name"));
  } else if (AcceptKeyword("table") || AcceptKeyword("view")) {
    stmt->target =
        tokens_[pos_ - 1].IsKeyword("table") ? CommentTarget::kTable : CommentTarget::kView;
    ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
  } else if (AcceptKeyword("column")) {
    stmt->target = CommentTarget::kColumn;
    // [db.]table.column: two or three dotted names.
    std::vector<std::string> parts;
    do {
      ICS_ASSIGN_OR_RETURN(std::string part, ParseIdentifier("column name"));
      parts.push_back(std::move(part));
    } while (parts.size() < 3 && AcceptPunct("."));
    if (parts.size() < 2) return Expected("'.' (COMMENT ON COLUMN takes table.column)");
    stmt->column = parts.back();
    stmt->table.table = parts[parts.size() - 2];
    if (parts.size() == 3) stmt->table.db = parts[0];
  } else {
    return Expected("DATABASE, TABLE, VIEW or COLUMN");
  }
  ICS_RETURN_IF_ERROR(ExpectKeyword("is"));
  if (!AcceptKeyword("null")) {
    ICS_ASSIGN_OR_RETURN(stmt->comment, ParseString("a comment string or NULL"));
  }
  return StmtPtr(std::move(stmt));
}

}  // namespace ics::sql::internal
