#include "common/web/html.h"

#include <nlohmann/json.hpp>

namespace ics::web {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsScalar(const nlohmann::ordered_json& v) { return !v.is_array() && !v.is_object(); }

bool IsArrayOfObjects(const nlohmann::ordered_json& v) {
  if (!v.is_array() || v.empty()) return false;
  for (const auto& e : v) {
    if (!e.is_object()) return false;
  }
  return true;
}

void RenderValue(const nlohmann::ordered_json& v, const std::vector<LinkRule>& links, std::string* out);

void RenderTable(const nlohmann::ordered_json& rows, const std::vector<LinkRule>& links,
                 std::string* out) {
  std::vector<std::string> columns;
  for (const auto& row : rows) {
    for (const auto& [k, unused] : row.items()) {
      bool seen = false;
      for (const auto& c : columns) seen = seen || c == k;
      if (!seen) columns.push_back(k);
    }
  }
  *out += "<table class=\"rows\"><thead><tr>";
  for (const auto& c : columns) *out += "<th>" + HtmlEscape(c) + "</th>";
  *out += "</tr></thead><tbody>\n";
  for (const auto& row : rows) {
    *out += "<tr>";
    for (const auto& c : columns) {
      *out += "<td>";
      auto it = row.find(c);
      if (it != row.end()) {
        std::string href;
        for (const LinkRule& rule : links) {
          if (rule.column == c && IsScalar(*it)) href = ExpandLinkTemplate(rule.url_template, row);
        }
        if (!href.empty()) {
          *out += "<a href=\"" + HtmlEscape(href) + "\">" + HtmlEscape(JsonScalarText(*it)) + "</a>";
        } else {
          RenderValue(*it, links, out);
        }
      }
      *out += "</td>";
    }
    *out += "</tr>\n";
  }
  *out += "</tbody></table>\n";
}

void RenderObject(const nlohmann::ordered_json& obj, const std::vector<LinkRule>& links,
                  std::string* out) {
  *out += "<table class=\"kv\"><tbody>\n";
  for (const auto& [k, v] : obj.items()) {
    *out += "<tr><th>" + HtmlEscape(k) + "</th><td>";
    RenderValue(v, links, out);
    *out += "</td></tr>\n";
  }
  *out += "</tbody></table>\n";
}

void RenderValue(const nlohmann::ordered_json& v, const std::vector<LinkRule>& links, std::string* out) {
  if (IsArrayOfObjects(v)) {
    RenderTable(v, links, out);
  } else if (v.is_array()) {
    bool first = true;
    for (const auto& e : v) {
      if (!first) *out += ", ";
      first = false;
      RenderValue(e, links, out);
    }
  } else if (v.is_object()) {
    RenderObject(v, links, out);
  } else {
    *out += HtmlEscape(JsonScalarText(v));
  }
}

}  // namespace

std::string HtmlEscape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string UrlEncode(const std::string& s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Result<std::string> UrlDecode(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%') {
      if (i + 2 >= s.size()) {
        return Status::InvalidArgument("truncated percent-escape in '" + s + "'");
      }
      const int hi = HexValue(s[i + 1]);
      const int lo = HexValue(s[i + 2]);
      if (hi < 0 || lo < 0) return Status::InvalidArgument("bad percent-escape in '" + s + "'");
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

Result<std::map<std::string, std::string>> ParseQuery(const std::string& query) {
  std::map<std::string, std::string> params;
  size_t pos = 0;
  while (pos <= query.size()) {
    size_t amp = query.find('&', pos);
    if (amp == std::string::npos) amp = query.size();
    const std::string part = query.substr(pos, amp - pos);
    pos = amp + 1;
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    ICS_ASSIGN_OR_RETURN(std::string name, UrlDecode(part.substr(0, eq)));
    std::string value;
    if (eq != std::string::npos) {
      ICS_ASSIGN_OR_RETURN(value, UrlDecode(part.substr(eq + 1)));
    }
    if (name.empty()) return Status::InvalidArgument("query parameter with an empty name");
    if (!params.emplace(name, std::move(value)).second) {
      return Status::InvalidArgument("query parameter '" + name + "' given more than once");
    }
  }
  return params;
}

std::string JsonScalarText(const nlohmann::ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

std::string ExpandLinkTemplate(const std::string& url_template, const nlohmann::ordered_json& row) {
  std::string out;
  size_t pos = 0;
  while (pos < url_template.size()) {
    const size_t open = url_template.find('{', pos);
    if (open == std::string::npos) {
      out += url_template.substr(pos);
      break;
    }
    const size_t close = url_template.find('}', open);
    if (close == std::string::npos) return "";
    out += url_template.substr(pos, open - pos);
    const std::string field = url_template.substr(open + 1, close - open - 1);
    auto it = row.find(field);
    if (it == row.end() || !IsScalar(*it)) return "";
    out += UrlEncode(JsonScalarText(*it));
    pos = close + 1;
  }
  return out;
}

std::string RenderJsonHtml(const nlohmann::ordered_json& doc, const std::vector<LinkRule>& links) {
  std::string out;
  if (!doc.is_object()) {
    RenderValue(doc, links, &out);
    return out;
  }
  // Scalars first in one summary table, then each nested part under a heading.
  nlohmann::ordered_json scalars = nlohmann::ordered_json::object();
  for (const auto& [k, v] : doc.items()) {
    if (IsScalar(v)) scalars[k] = v;
  }
  if (!scalars.empty()) RenderObject(scalars, links, &out);
  for (const auto& [k, v] : doc.items()) {
    if (IsScalar(v)) continue;
    out += "<h2>" + HtmlEscape(k) + "</h2>\n";
    if (v.empty()) {
      out += "<p class=\"empty\">(none)</p>\n";
    } else {
      RenderValue(v, links, &out);
    }
  }
  return out;
}

}  // namespace ics::web
