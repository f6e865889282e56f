// HTML and URL helpers for the debug web pages: escaping, percent-encoding,
// query-string parsing, and the generic JSON -> HTML renderer every page uses
// unless it brings its own.
//
// Everything that came from a user (names, keys, values, query parameters)
// must go through HtmlEscape (text and attribute values) or UrlEncode (URL
// components) before it reaches a page; RenderJsonHtml does so for every
// key and value of the document.
//
// Thread-safety: free functions without shared state.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/util/result.h"

namespace ics::web {

// Escapes & < > " ' so the result is safe as HTML text and as a quoted
// attribute value.
std::string HtmlEscape(const std::string& s);

// Percent-encodes everything but unreserved characters (A-Z a-z 0-9 - . _ ~).
std::string UrlEncode(const std::string& s);
// Decodes %XX and '+' (as space). Fails on a truncated or non-hex escape.
Result<std::string> UrlDecode(const std::string& s);

// Parses "a=1&b=x%20y&json" into {a:1, b:"x y", json:""}. Fails (400) on a bad
// escape, an empty name or a parameter given twice.
Result<std::map<std::string, std::string>> ParseQuery(const std::string& query);

// In a table rendered from an array of objects, the cells of `column` become
// links to `url_template` with every {field} replaced by the URL-encoded
// value of that field of the same row (e.g. {"name", "/catalog?db={db}&table={name}"}).
// A row missing a referenced field gets no link.
struct LinkRule {
  std::string column;
  std::string url_template;
};

// Renders a JSON document as an HTML fragment:
//   object          -> key/value table (nested arrays/objects get a heading)
//   array of objects-> table, one column per key (first-seen order)
//   array of scalars-> comma-separated list
//   scalars         -> text (strings escaped)
std::string RenderJsonHtml(const nlohmann::ordered_json& doc, const std::vector<LinkRule>& links = {});

// Expands a LinkRule template against one row; empty if a field is missing.
std::string ExpandLinkTemplate(const std::string& url_template, const nlohmann::ordered_json& row);

// A scalar JSON value as display text (strings unquoted, not escaped).
std::string JsonScalarText(const nlohmann::ordered_json& v);

}  // namespace ics::web
