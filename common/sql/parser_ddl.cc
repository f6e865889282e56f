// CREATE, DROP and ALTER statements (see parser.h for the grammar).
#include <utility>

#include "common/sql/parser_internal.h"

namespace ics::sql::internal {

Result<StmtPtr> Parser::ParseCreate() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("create"));
  if (AcceptKeyword("database") || AcceptKeyword("schema")) {
    auto stmt = std::make_unique<CreateDatabaseStmt>();
    ICS_ASSIGN_OR_RETURN(stmt->if_not_exists, AcceptIfNotExists());
    ICS_ASSIGN_OR_RETURN(stmt->db, ParseIdentifier("database name"));
    ICS_ASSIGN_OR_RETURN(stmt->comment, ParseOptionalComment());
    if (AcceptKeyword("location")) {
      ICS_ASSIGN_OR_RETURN(stmt->location, ParseString("a location string"));
    }
    return StmtPtr(std::move(stmt));
  }
  if (AcceptKeyword("external")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("table"));
    return ParseCreateTable(true);
  }
  if (AcceptKeyword("table")) return ParseCreateTable(false);
  if (AtKeyword("view")) return ParseCreateView();
  return Expected("DATABASE, TABLE, EXTERNAL TABLE or VIEW");
}

Result<StmtPtr> Parser::ParseCreateTable(bool external) {
  ICS_ASSIGN_OR_RETURN(const bool if_not_exists, AcceptIfNotExists());
  ICS_ASSIGN_OR_RETURN(TableName name, ParseTableName("table name"));
  if (AcceptKeyword("like")) {
    auto stmt = std::make_unique<CreateTableLikeStmt>();
    stmt->external = external;
    stmt->if_not_exists = if_not_exists;
    stmt->table = std::move(name);
    ICS_ASSIGN_OR_RETURN(stmt->source, ParseTableName("source table name"));
    ICS_ASSIGN_OR_RETURN(stmt->comment, ParseOptionalComment());
    if (AcceptKeyword("stored")) {
      ICS_RETURN_IF_ERROR(ExpectKeyword("as"));
      ICS_ASSIGN_OR_RETURN(stmt->file_format, ParseFileFormat());
    }
    if (AcceptKeyword("location")) {
      ICS_ASSIGN_OR_RETURN(stmt->location, ParseString("a location string"));
    }
    return StmtPtr(std::move(stmt));
  }
  if (AtKeyword("as")) return ErrorAt(Peek(), "CREATE TABLE AS SELECT is not supported");
  if (!AtPunct("(")) return Expected("'(' or LIKE");

  auto stmt = std::make_unique<CreateTableStmt>();
  stmt->external = external;
  stmt->if_not_exists = if_not_exists;
  stmt->table = std::move(name);
  ICS_ASSIGN_OR_RETURN(stmt->columns, ParseColumnDefs(true));
  if (AcceptKeyword("partitioned")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("by"));
    ICS_ASSIGN_OR_RETURN(stmt->partition_columns, ParseColumnDefs(false));
  }
  ICS_ASSIGN_OR_RETURN(stmt->comment, ParseOptionalComment());
  if (AcceptKeyword("row")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("format"));
    ICS_RETURN_IF_ERROR(ExpectKeyword("delimited"));
    RowFormat rf;
    if (AcceptKeyword("fields")) {
      ICS_RETURN_IF_ERROR(ExpectKeyword("terminated"));
      ICS_RETURN_IF_ERROR(ExpectKeyword("by"));
      ICS_ASSIGN_OR_RETURN(rf.field_terminator, ParseString("a delimiter string"));
    }
    if (AcceptKeyword("escaped")) {
      ICS_RETURN_IF_ERROR(ExpectKeyword("by"));
      ICS_ASSIGN_OR_RETURN(rf.escaped_by, ParseString("an escape character string"));
    }
    if (AcceptKeyword("lines")) {
      ICS_RETURN_IF_ERROR(ExpectKeyword("terminated"));
      ICS_RETURN_IF_ERROR(ExpectKeyword("by"));
      ICS_ASSIGN_OR_RETURN(rf.line_terminator, ParseString("a delimiter string"));
    }
    // Hive also accepts ESCAPED BY after LINES TERMINATED BY.
    if (!rf.escaped_by && AcceptKeyword("escaped")) {
      ICS_RETURN_IF_ERROR(ExpectKeyword("by"));
      ICS_ASSIGN_OR_RETURN(rf.escaped_by, ParseString("an escape character string"));
    }
    stmt->row_format = std::move(rf);
  }
  if (AcceptKeyword("stored")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("as"));
    ICS_ASSIGN_OR_RETURN(stmt->file_format, ParseFileFormat());
  }
  if (AcceptKeyword("location")) {
    ICS_ASSIGN_OR_RETURN(stmt->location, ParseString("a location string"));
  }
  if (AcceptKeyword("tblproperties")) {
    ICS_ASSIGN_OR_RETURN(stmt->tblproperties, ParseProperties());
  }
  if (AtKeyword("as")) return ErrorAt(Peek(), "CREATE TABLE AS SELECT is not supported");
  return StmtPtr(std::move(stmt));
}

Result<std::string> Parser::ParseQueryText() {
  if (!AtKeyword("select") && !AtKeyword("with") && !AtKeyword("values")) {
    return Expected("a query (SELECT ...)");
  }
  const Token& first = Peek();
  const Token* last = &first;
  while (!AtEnd() && !AtPunct(";")) last = &Consume();
  return std::string(sql_.substr(first.offset, last->offset + last->length - first.offset));
}

Result<StmtPtr> Parser::ParseCreateView() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("view"));
  auto stmt = std::make_unique<CreateViewStmt>();
  ICS_ASSIGN_OR_RETURN(stmt->if_not_exists, AcceptIfNotExists());
  ICS_ASSIGN_OR_RETURN(stmt->view, ParseTableName("view name"));
  if (AcceptPunct("(")) {
    stmt->has_column_list = true;
    if (!AtPunct(")")) {
      do {
        ViewColumn col;
        ICS_ASSIGN_OR_RETURN(col.name, ParseIdentifier("column name"));
        ICS_ASSIGN_OR_RETURN(col.comment, ParseOptionalComment());
        stmt->columns.push_back(std::move(col));
      } while (AcceptPunct(","));
    }
    ICS_RETURN_IF_ERROR(ExpectPunct(")"));
  }
  ICS_ASSIGN_OR_RETURN(stmt->comment, ParseOptionalComment());
  ICS_RETURN_IF_ERROR(ExpectKeyword("as"));
  ICS_ASSIGN_OR_RETURN(stmt->select_text, ParseQueryText());
  return StmtPtr(std::move(stmt));
}

Result<StmtPtr> Parser::ParseDrop() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("drop"));
  if (AcceptKeyword("database") || AcceptKeyword("schema")) {
    auto stmt = std::make_unique<DropDatabaseStmt>();
    ICS_ASSIGN_OR_RETURN(stmt->if_exists, AcceptIfExists());
    ICS_ASSIGN_OR_RETURN(stmt->db, ParseIdentifier("database name"));
    if (AcceptKeyword("cascade")) {
      stmt->cascade = true;
    } else {
      AcceptKeyword("restrict");
    }
    return StmtPtr(std::move(stmt));
  }
  if (AcceptKeyword("table")) {
    auto stmt = std::make_unique<DropTableStmt>();
    ICS_ASSIGN_OR_RETURN(stmt->if_exists, AcceptIfExists());
    ICS_ASSIGN_OR_RETURN(stmt->table, ParseTableName("table name"));
    stmt->purge = AcceptKeyword("purge");
    return StmtPtr(std::move(stmt));
  }
  if (AcceptKeyword("view")) {
    auto stmt = std::make_unique<DropViewStmt>();
    ICS_ASSIGN_OR_RETURN(stmt->if_exists, AcceptIfExists());
    ICS_ASSIGN_OR_RETURN(stmt->view, ParseTableName("view name"));
    return StmtPtr(std::move(stmt));
  }
  if (AtKeyword("stats") || AtKeyword("incremental")) return ParseDropStats();
  return Expected("DATABASE, TABLE, VIEW, STATS or INCREMENTAL STATS");
}

Result<StmtPtr> Parser::ParseAlter() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("alter"));
  if (AcceptKeyword("table")) return ParseAlterTable();
  if (AcceptKeyword("database") || AcceptKeyword("schema")) {
    auto stmt = std::make_unique<AlterDatabaseSetOwnerStmt>();
    ICS_ASSIGN_OR_RETURN(stmt->db, ParseIdentifier("database name"));
    ICS_RETURN_IF_ERROR(ExpectKeyword("set"));
    ICS_ASSIGN_OR_RETURN(stmt->owner, ParseOwner());
    return StmtPtr(std::move(stmt));
  }
  if (AcceptKeyword("view")) {
    ICS_ASSIGN_OR_RETURN(TableName view, ParseTableName("view name"));
    if (AcceptKeyword("set")) {
      ICS_RETURN_IF_ERROR(ExpectKeyword("tblproperties"));
      auto stmt = std::make_unique<AlterViewSetTblPropertiesStmt>();
      stmt->view = std::move(view);
      ICS_ASSIGN_OR_RETURN(stmt->properties, ParseProperties());
      return StmtPtr(std::move(stmt));
    }
    if (AcceptKeyword("unset")) {
      ICS_RETURN_IF_ERROR(ExpectKeyword("tblproperties"));
      auto stmt = std::make_unique<AlterViewUnsetTblPropertiesStmt>();
      stmt->view = std::move(view);
      ICS_ASSIGN_OR_RETURN(stmt->if_exists, AcceptIfExists());
      ICS_ASSIGN_OR_RETURN(stmt->keys, ParsePropertyKeys());
      return StmtPtr(std::move(stmt));
    }
    if (!AtKeyword("as")) return Expected("AS, SET TBLPROPERTIES or UNSET TBLPROPERTIES");
    ICS_RETURN_IF_ERROR(ExpectKeyword("as"));
    auto stmt = std::make_unique<AlterViewStmt>();
    stmt->view = std::move(view);
    ICS_ASSIGN_OR_RETURN(stmt->select_text, ParseQueryText());
    return StmtPtr(std::move(stmt));
  }
  return Expected("TABLE, VIEW or DATABASE");
}

Result<StmtPtr> Parser::ParseAlterTable() {
  ICS_ASSIGN_OR_RETURN(TableName table, ParseTableName("table name"));

  if (AcceptKeyword("add")) {
    if (AcceptKeyword("column")) {
      auto stmt = std::make_unique<AlterTableAddColumnsStmt>();
      stmt->table = std::move(table);
      ICS_ASSIGN_OR_RETURN(stmt->if_not_exists, AcceptIfNotExists());
      ICS_ASSIGN_OR_RETURN(ColumnDef col, ParseColumnDef());
      stmt->columns.push_back(std::move(col));
      return StmtPtr(std::move(stmt));
    }
    ICS_ASSIGN_OR_RETURN(const bool if_not_exists, AcceptIfNotExists());
    if (AcceptKeyword("columns")) {
      auto stmt = std::make_unique<AlterTableAddColumnsStmt>();
      stmt->table = std::move(table);
      stmt->if_not_exists = if_not_exists;
      ICS_ASSIGN_OR_RETURN(stmt->columns, ParseColumnDefs(true));
      return StmtPtr(std::move(stmt));
    }
    if (!AtKeyword("partition")) return Expected("PARTITION, COLUMNS or COLUMN");
    auto stmt = std::make_unique<AlterTableAddPartitionsStmt>();
    stmt->table = std::move(table);
    stmt->if_not_exists = if_not_exists;
    while (AcceptKeyword("partition")) {
      PartitionDef def;
      ICS_ASSIGN_OR_RETURN(def.spec, ParsePartitionSpec(false));
      if (AcceptKeyword("location")) {
        ICS_ASSIGN_OR_RETURN(def.location, ParseString("a location string"));
      }
      stmt->partitions.push_back(std::move(def));
    }
    return StmtPtr(std::move(stmt));
  }

  if (AcceptKeyword("replace")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("columns"));
    auto stmt = std::make_unique<AlterTableReplaceColumnsStmt>();
    stmt->table = std::move(table);
    ICS_ASSIGN_OR_RETURN(stmt->columns, ParseColumnDefs(true));
    return StmtPtr(std::move(stmt));
  }

  if (AcceptKeyword("drop")) {
    if (AtKeyword("if") || AtKeyword("partition")) {
      auto stmt = std::make_unique<AlterTableDropPartitionsStmt>();
      stmt->table = std::move(table);
      ICS_ASSIGN_OR_RETURN(stmt->if_exists, AcceptIfExists());
      do {
        ICS_RETURN_IF_ERROR(ExpectKeyword("partition"));
        ICS_ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionSpec(false));
        stmt->partitions.push_back(std::move(spec));
      } while (AcceptPunct(","));
      stmt->purge = AcceptKeyword("purge");
      return StmtPtr(std::move(stmt));
    }
    // COLUMN is the keyword only when a name follows (else it names the column).
    if (AtKeyword("column") && AtIdentifier(1)) Consume();
    auto stmt = std::make_unique<AlterTableDropColumnStmt>();
    stmt->table = std::move(table);
    ICS_ASSIGN_OR_RETURN(stmt->column, ParseIdentifier("column name or PARTITION"));
    return StmtPtr(std::move(stmt));
  }

  if (AcceptKeyword("change")) {
    if (AtKeyword("column") && AtIdentifier(1) && AtIdentifier(2)) Consume();
    auto stmt = std::make_unique<AlterTableChangeColumnStmt>();
    stmt->table = std::move(table);
    ICS_ASSIGN_OR_RETURN(stmt->old_name, ParseIdentifier("column name"));
    ICS_ASSIGN_OR_RETURN(stmt->new_column, ParseColumnDef());
    return StmtPtr(std::move(stmt));
  }

  if (AcceptKeyword("rename")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("to"));
    auto stmt = std::make_unique<AlterTableRenameStmt>();
    stmt->table = std::move(table);
    ICS_ASSIGN_OR_RETURN(stmt->new_name, ParseTableName("new table name"));
    return StmtPtr(std::move(stmt));
  }

  if (AcceptKeyword("unset")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("tblproperties"));
    auto stmt = std::make_unique<AlterTableUnsetTblPropertiesStmt>();
    stmt->table = std::move(table);
    ICS_ASSIGN_OR_RETURN(stmt->if_exists, AcceptIfExists());
    ICS_ASSIGN_OR_RETURN(stmt->keys, ParsePropertyKeys());
    return StmtPtr(std::move(stmt));
  }

  if (AcceptKeyword("recover")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("partitions"));
    auto stmt = std::make_unique<AlterTableRecoverPartitionsStmt>();
    stmt->table = std::move(table);
    return StmtPtr(std::move(stmt));
  }

  std::optional<PartitionSpec> partition;
  if (AcceptKeyword("partition")) {
    ICS_ASSIGN_OR_RETURN(partition, ParsePartitionSpec(false));
    if (!AtKeyword("set")) return Expected("SET");
  }
  if (AtKeyword("set")) return ParseAlterTableSet(table, std::move(partition));
  return Expected(
      "ADD, DROP, REPLACE COLUMNS, CHANGE, RENAME TO, SET, UNSET, PARTITION or RECOVER "
      "PARTITIONS");
}

Result<StmtPtr> Parser::ParseAlterTableSet(const TableName& table,
                                           std::optional<PartitionSpec> partition) {
  ICS_RETURN_IF_ERROR(ExpectKeyword("set"));
  if (AcceptKeyword("tblproperties")) {
    auto stmt = std::make_unique<AlterTableSetTblPropertiesStmt>();
    stmt->table = table;
    stmt->partition = std::move(partition);
    ICS_ASSIGN_OR_RETURN(stmt->properties, ParseProperties());
    return StmtPtr(std::move(stmt));
  }
  if (AcceptKeyword("location")) {
    auto stmt = std::make_unique<AlterTableSetLocationStmt>();
    stmt->table = table;
    stmt->partition = std::move(partition);
    ICS_ASSIGN_OR_RETURN(stmt->location, ParseString("a location string"));
    return StmtPtr(std::move(stmt));
  }
  if (AcceptKeyword("fileformat")) {
    auto stmt = std::make_unique<AlterTableSetFileFormatStmt>();
    stmt->table = table;
    stmt->partition = std::move(partition);
    ICS_ASSIGN_OR_RETURN(stmt->file_format, ParseFileFormat());
    return StmtPtr(std::move(stmt));
  }
  if (AtKeyword("owner")) {
    if (partition) return ErrorAt(Peek(), "SET OWNER does not take a PARTITION clause");
    auto stmt = std::make_unique<AlterTableSetOwnerStmt>();
    stmt->table = table;
    ICS_ASSIGN_OR_RETURN(stmt->owner, ParseOwner());
    return StmtPtr(std::move(stmt));
  }
  return Expected(partition ? "TBLPROPERTIES, LOCATION or FILEFORMAT"
                            : "TBLPROPERTIES, LOCATION, FILEFORMAT or OWNER");
}

}  // namespace ics::sql::internal
