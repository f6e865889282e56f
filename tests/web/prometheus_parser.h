// A strict parser of the Prometheus text exposition format 0.0.4, written for
// tests: it checks what a scraper relies on and reports the first violation.
//
//  * `# HELP name text` (escapes \\ and \n) and `# TYPE name type` at most
//    once per family, TYPE before the family's first sample;
//  * sample lines `name{l="v",...} value [timestamp]` with valid metric and
//    label names, label values escaped only as \\, \" and \n, values that
//    parse as floats (NaN, +Inf, -Inf allowed), no duplicate series;
//  * a family's samples are contiguous; summary samples are name{quantile=}
//    plus name_sum and name_count; histogram samples are name_bucket{le=}
//    (with a +Inf bucket), name_sum and name_count.
//
// Thread-safety: value types and a pure function.
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ics::webtest {

struct PromSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

struct PromFamily {
  std::string name;
  std::string help;
  std::string type = "untyped";
  std::vector<PromSample> samples;
};

struct PromParseResult {
  std::string error;  // empty on success; else "line N: what"
  std::map<std::string, PromFamily> families;

  bool ok() const { return error.empty(); }
  // The value of the series with exactly these labels; NAN if absent.
  double Value(const std::string& sample_name,
               const std::map<std::string, std::string>& labels = {}) const {
    for (const auto& [fname, f] : families) {
      for (const auto& s : f.samples) {
        if (s.name == sample_name && s.labels == labels) return s.value;
      }
    }
    return NAN;
  }
};

namespace promdetail {

inline bool NameChar(char c, bool first, bool colon) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return true;
  if (colon && c == ':') return true;
  return !first && c >= '0' && c <= '9';
}

inline size_t ReadName(const std::string& s, size_t pos, bool colon) {
  size_t i = pos;
  while (i < s.size() && NameChar(s[i], i == pos, colon)) ++i;
  return i;
}

inline bool ParseValue(const std::string& t, double* v) {
  if (t == "NaN") { *v = NAN; return true; }
  if (t == "+Inf" || t == "Inf") { *v = INFINITY; return true; }
  if (t == "-Inf") { *v = -INFINITY; return true; }
  if (t.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size() && std::isfinite(*v);
}

inline bool Unescape(const std::string& s, bool allow_quote, std::string* out) {
  out->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') { *out += s[i]; continue; }
    if (++i >= s.size()) return false;
    if (s[i] == '\\') *out += '\\';
    else if (s[i] == 'n') *out += '\n';
    else if (s[i] == '"' && allow_quote) *out += '"';
    else return false;
  }
  return true;
}

}  // namespace promdetail

inline PromParseResult ParsePrometheusText(const std::string& text) {
  using namespace promdetail;
  PromParseResult r;
  std::set<std::string> finished;   // families whose samples ended
  std::string current;              // family of the previous sample
  std::set<std::string> series_seen;
  std::set<std::string> has_help, has_type;
  size_t line_no = 0;
  size_t pos = 0;
  auto fail = [&](const std::string& what) {
    r.error = "line " + std::to_string(line_no) + ": " + what;
    return r;
  };
  if (!text.empty() && text.back() != '\n') {
    line_no = 0;
    return fail("output does not end with a newline");
  }
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (line.rfind("# HELP ", 0) != 0 && line.rfind("# TYPE ", 0) != 0) continue;  // comment
      const bool help = line[2] == 'H';
      const size_t name_end = ReadName(line, 7, true);
      const std::string name = line.substr(7, name_end - 7);
      if (name.empty()) return fail("bad metric name in " + line.substr(0, 6));
      if (name_end < line.size() && line[name_end] != ' ') return fail("bad metric name " + name);
      const std::string rest = name_end < line.size() ? line.substr(name_end + 1) : "";
      PromFamily& f = r.families[name];
      f.name = name;
      if (help) {
        if (!has_help.insert(name).second) return fail("second HELP for " + name);
        if (!Unescape(rest, false, &f.help)) return fail("bad escape in HELP of " + name);
      } else {
        static const std::set<std::string> kTypes = {"counter", "gauge", "summary", "histogram",
                                                     "untyped"};
        if (!kTypes.count(rest)) return fail("unknown TYPE '" + rest + "' for " + name);
        if (!f.samples.empty()) return fail("TYPE of " + name + " after its samples");
        if (!has_type.insert(name).second) return fail("second TYPE for " + name);
        f.type = rest;
      }
      continue;
    }
    // A sample line.
    PromSample s;
    size_t i = ReadName(line, 0, true);
    s.name = line.substr(0, i);
    if (s.name.empty()) return fail("bad sample line '" + line + "'");
    if (i < line.size() && line[i] == '{') {
      ++i;
      while (true) {
        if (i < line.size() && line[i] == '}') { ++i; break; }
        const size_t ln_end = ReadName(line, i, false);
        const std::string lname = line.substr(i, ln_end - i);
        if (lname.empty() || ln_end + 1 >= line.size() || line[ln_end] != '=' ||
            line[ln_end + 1] != '"') {
          return fail("bad label in '" + line + "'");
        }
        size_t j = ln_end + 2;
        std::string raw;
        while (j < line.size() && line[j] != '"') {
          if (line[j] == '\\' && j + 1 < line.size()) raw += line[j++];
          raw += line[j++];
        }
        if (j >= line.size()) return fail("unterminated label value in '" + line + "'");
        std::string value;
        if (!Unescape(raw, true, &value)) return fail("bad escape in label " + lname);
        if (!s.labels.emplace(lname, value).second) return fail("label " + lname + " repeated");
        i = j + 1;
        if (i < line.size() && line[i] == ',') ++i;
        else if (i >= line.size() || line[i] != '}') return fail("bad label list in '" + line + "'");
      }
    }
    if (i >= line.size() || line[i] != ' ') return fail("no value in '" + line + "'");
    std::string rest = line.substr(i + 1);
    const size_t sp = rest.find(' ');
    const std::string vtext = rest.substr(0, sp);
    if (sp != std::string::npos) {
      const std::string ts = rest.substr(sp + 1);
      if (ts.empty() || ts.find_first_not_of("-0123456789") != std::string::npos) {
        return fail("bad timestamp in '" + line + "'");
      }
    }
    if (!ParseValue(vtext, &s.value)) return fail("bad value '" + vtext + "'");

    // Which family does it belong to?
    std::string family = s.name;
    for (const char* suffix : {"_sum", "_count", "_bucket"}) {
      const std::string suf = suffix;
      if (s.name.size() > suf.size() && s.name.compare(s.name.size() - suf.size(), suf.size(), suf) == 0) {
        const std::string base = s.name.substr(0, s.name.size() - suf.size());
        auto it = r.families.find(base);
        if (it != r.families.end() && (it->second.type == "summary" || it->second.type == "histogram")) {
          if (suf == "_bucket" && it->second.type != "histogram") continue;
          family = base;
        }
      }
    }
    PromFamily& f = r.families[family];
    f.name = family;
    if (family != current) {
      if (finished.count(family)) return fail("samples of " + family + " are not contiguous");
      if (!current.empty()) finished.insert(current);
      current = family;
    }
    if (f.type == "summary" && s.name == family && !s.labels.count("quantile")) {
      return fail("summary sample without quantile: " + line);
    }
    if (f.type == "histogram" && s.name == family + "_bucket" && !s.labels.count("le")) {
      return fail("histogram bucket without le: " + line);
    }
    if (f.type == "histogram" && s.name == family) return fail("bare histogram sample: " + line);
    std::string key = s.name + "{";
    for (const auto& [k, v] : s.labels) key += k + "=" + v + "\x1f";
    if (!series_seen.insert(key).second) return fail("duplicate series " + s.name);
    f.samples.push_back(std::move(s));
  }
  for (const auto& [name, f] : r.families) {
    if (f.type != "histogram") continue;
    bool inf = false;
    for (const auto& s : f.samples) inf = inf || (s.labels.count("le") && s.labels.at("le") == "+Inf");
    if (!inf) {
      r.error = "histogram " + name + " has no +Inf bucket";
      return r;
    }
  }
  return r;
}

}  // namespace ics::webtest
