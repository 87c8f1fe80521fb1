#!/usr/bin/env python3
"""Writes bench/floor.sh's pgbench scripts: the statements each mode sends per request, as the store
builds them (printed by PrintPostgresStatements in idempotency-benchmarks), and the least a store
could send instead, taken from the benchmark app's FloorFilter (the floor scenarios of
bench/minimal.sh)."""
import os
import re
import sys

FLOOR_SOURCE = "idempotency-bench-minimal/src/main/java/io/github/idempotency/bench/minimal/FloorFilter.java"
BODY = r"'\x7b226964223a312c226e616d65223a2270656e222c227175616e74697479223a327d'::bytea"
PARAMETERS = {
    "tenant": "'default'", "operation": "'create-item'", "fingerprint": "repeat('f', 64)",
    "leaseMillis": "30000", "ttlMillis": "86400000", "responseStatus": "201",
    "responseHeaders": "'Location: /items/1'", "responseBody": BODY, "status": "201",
}
INSERT = "INSERT INTO item (name, quantity) VALUES ('pen', 2) RETURNING id;"


def begin(first):
    """BEGIN sent with the transaction's first statement in one round trip, as pgjdbc does."""
    return ["\\startpipeline", "BEGIN;", first, "\\endpipeline"]


APPLICATION = begin(INSERT) + ["COMMIT;"]


def printed(path):
    """The statements PrintPostgresStatements printed, by name: each after a line "-- <name>"."""
    statements = {}
    for block in re.split(r"^-- ", open(path).read(), flags=re.M)[1:]:
        name, _, text = block.partition("\n")
        statements[name.strip()] = text
    return statements


def constant(source, name):
    """The text block of a constant (String NAME = \"\"\"...)."""
    return re.search(r"String " + name + r" = \"\"\"(.*?)\"\"\";", source, re.S).group(1)


def statement(text, **values):
    """A statement with its named parameters replaced by values, on one line."""
    for parameter, value in {**PARAMETERS, **values}.items():
        text = re.sub(r"(?<!:):" + parameter + r"\b", lambda _: value, text)
    return " ".join(text.split()) + ";"


def main(out, printed_statements):
    source = printed(printed_statements)
    fresh_key = "('k-' || :client_id || '-' || :n)"
    token = "CAST(md5" + fresh_key + " AS UUID)"
    claim = statement(source["claim"], key=fresh_key, token=token)
    complete = statement(source["complete"], key=fresh_key, token=token)
    replay_key = "('r-' || :r)"
    replay_claim = statement(source["claim"], key=replay_key, token="gen_random_uuid()")
    floor = open(FLOOR_SOURCE).read()
    least_claim = statement(constant(floor, "CLAIM"), key=fresh_key)
    least_complete = statement(constant(floor, "COMPLETE"), key=fresh_key)
    head = ["\\set n random(1, 9000000000000000000)"]
    scripts = {
        "baseline": head + APPLICATION,
        "leased": head + [claim] + APPLICATION + [complete],
        "atomic": head + begin(claim) + [INSERT, complete, "COMMIT;"],
        "least-leased": head + [least_claim] + APPLICATION + [least_complete],
        "least-atomic": head + begin(least_claim) + [INSERT, least_complete, "COMMIT;"],
        "replay-leased": ["\\set r random(0, 499)", replay_claim],
        "replay-atomic": ["\\set r random(0, 499)"] + begin(replay_claim) + ["ROLLBACK;"],
    }
    for name, lines in scripts.items():
        with open(os.path.join(out, name + ".sql"), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
