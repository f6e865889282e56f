#!/usr/bin/env python3
"""Writes SQL that builds a small TPC-DS-like warehouse through the system:
dimension tables (date_dim, item, customer, store) and two fact tables
partitioned by date (store_sales by ss_sold_date_sk, web_returns by
wr_returned_date_sk), with real rows INSERTed so every partition gets a
text data file.

  gen_demo_sql.py [--partitions N] [--rows R] [--seed S] > demo.sql

--partitions is the number of date partitions per fact table; --rows the
rows per partition. Deterministic for a given seed.
"""
import argparse
import random
import sys

FIRST_DATE_SK = 2450816  # 1998-01-02 in TPC-DS


def q(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--partitions", type=int, default=60)
    ap.add_argument("--rows", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--db", default="tpcds")
    args = ap.parse_args()
    if args.partitions < 1 or args.rows < 1:
        ap.error("--partitions and --rows must be >= 1")
    rnd = random.Random(args.seed)
    out = sys.stdout
    db = args.db
    w = lambda s: out.write(s + ";\n")

    w(f"CREATE DATABASE IF NOT EXISTS {db} COMMENT 'TPC-DS-like demo warehouse'")
    w(f"USE {db}")
    w("CREATE TABLE IF NOT EXISTS date_dim (d_date_sk BIGINT, d_date DATE, d_year INT, "
      "d_moy INT, d_dom INT, d_day_name STRING) STORED AS TEXTFILE")
    w("CREATE TABLE IF NOT EXISTS item (i_item_sk BIGINT, i_item_id STRING, "
      "i_category STRING, i_brand STRING, i_current_price DECIMAL(7,2)) STORED AS TEXTFILE")
    w("CREATE TABLE IF NOT EXISTS customer (c_customer_sk BIGINT, c_first_name STRING, "
      "c_last_name STRING, c_birth_year INT) STORED AS TEXTFILE")
    w("CREATE TABLE IF NOT EXISTS store (s_store_sk BIGINT, s_store_name STRING, "
      "s_state STRING) STORED AS TEXTFILE")
    w("CREATE TABLE IF NOT EXISTS store_sales (ss_item_sk BIGINT, ss_customer_sk BIGINT, "
      "ss_store_sk BIGINT, ss_quantity INT, ss_sales_price DECIMAL(7,2)) "
      "PARTITIONED BY (ss_sold_date_sk BIGINT) STORED AS TEXTFILE "
      "TBLPROPERTIES ('source'='gen_demo_sql.py')")
    w("CREATE TABLE IF NOT EXISTS web_returns (wr_item_sk BIGINT, wr_return_quantity INT, "
      "wr_reason STRING) PARTITIONED BY (wr_returned_date_sk BIGINT) STORED AS TEXTFILE")

    days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    rows = []
    for i in range(args.partitions):
        sk = FIRST_DATE_SK + i
        month = 1 + (i // 28) % 12
        dom = 1 + i % 28
        rows.append(f"({sk}, DATE '1998-{month:02d}-{dom:02d}', 1998, {month}, {dom}, "
                    f"{q(days[i % 7])})")
    w("INSERT INTO date_dim VALUES " + ", ".join(rows))
    cats = ["Books", "Music", "Home", "Sports", "Shoes", "Jewelry"]
    w("INSERT INTO item VALUES " + ", ".join(
        f"({k}, {q('AAAAAAAA%08d' % k)}, {q(rnd.choice(cats))}, {q('brand#%d' % rnd.randint(1, 20))}, "
        f"{rnd.randint(100, 9999) / 100:.2f})" for k in range(1, 51)))
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    w("INSERT INTO customer VALUES " + ", ".join(
        f"({k}, {q(rnd.choice(names))}, {q('Smith%d' % rnd.randint(1, 9))}, {rnd.randint(1940, 2000)})"
        for k in range(1, 41)))
    w("INSERT INTO store VALUES (1, 'ese', 'TN'), (2, 'able', 'TN'), (3, 'anti', 'GA')")

    for i in range(args.partitions):
        sk = FIRST_DATE_SK + i
        vals = ", ".join(
            f"({rnd.randint(1, 50)}, {rnd.randint(1, 40)}, {rnd.randint(1, 3)}, "
            f"{rnd.randint(1, 100)}, {rnd.randint(100, 20000) / 100:.2f})"
            for _ in range(args.rows))
        w(f"INSERT INTO store_sales PARTITION (ss_sold_date_sk={sk}) VALUES {vals}")
        if i % 3 == 0:
            reasons = ["damaged", "wrong size", "late", None]
            vals = ", ".join(
                f"({rnd.randint(1, 50)}, {rnd.randint(1, 5)}, "
                f"{'NULL' if (r := rnd.choice(reasons)) is None else q(r)})"
                for _ in range(max(1, args.rows // 2)))
            w(f"INSERT INTO web_returns PARTITION (wr_returned_date_sk={sk}) VALUES {vals}")


if __name__ == "__main__":
    main()
