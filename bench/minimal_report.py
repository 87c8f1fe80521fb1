"""Turns the wrk results of bench/minimal.sh into a table: per scenario the median requests/s over
the interleaved rounds and its ratio to the unguarded baseline's median, the targets of SPEC 9 for
the smallest real endpoint, and what each request cost PostgreSQL: transactions committed, commit
records and bytes written to the WAL, and statements where pg_stat_statements was preloaded (for the
Redis scenarios, the application's own insert alone). On another database (the last argument, PostgreSQL
unless given) those statistics are absent: null in the JSON, left out of the table. Each connection count
measured has its own rows and its own baseline. Where a competitor's build of the endpoint ran beside
ours, a second table sets our modes against it: LEASED and ATOMIC against its first executions, our
replays against its replays."""
import json
import statistics
import sys

# SPEC 9's targets for the smallest endpoint, stated for PostgreSQL; shown for the Redis scenarios of
# the same mode too.
TARGETS = {"leased": 0.60, "leased-alone": 0.60, "atomic": 0.65, "replay-leased": 2.50, "replay-atomic": 2.50, "replay-cached": 2.50,
           "redis-leased": 0.60, "redis-replay": 2.50, "cluster-leased": 0.60, "cluster-replay": 2.50}
ORDER = ["baseline", "leased", "leased-alone", "floor-leased", "atomic", "floor-atomic", "replay-leased", "replay-atomic",
         "replay-cached", "redis-leased", "redis-replay", "cluster-leased", "cluster-replay", "competitor",
         "competitor-replay"]
# Ours against the competitor's: (our scenario, its scenario); the aim is 1.5 times in each.
AGAINST_COMPETITOR = [("leased", "competitor"), ("atomic", "competitor"), ("replay-leased", "competitor-replay"),
                      ("replay-atomic", "competitor-replay"), ("replay-cached", "competitor-replay")]
COMPETITOR_AIM = 1.5


def main(results_path, out_prefix, machine, database="PostgreSQL"):
    runs = [json.loads(line) for line in open(results_path) if line.strip()]
    for run in runs:
        run["rps"] = run["requests"] / (run["duration_us"] / 1e6)
        run["errors"] = run["socket_errors"] + run["status_errors"]
    groups = {}
    for run in runs:
        groups.setdefault((run["scenario"], run["connections"]), []).append(run)
    rows = []
    for (scenario, connections), group in groups.items():
        requests = sum(r["requests"] for r in group)
        known = all(r["statements_known"] for r in group)
        counted = all(r["transactions"] is not None for r in group)
        rows.append({
            "scenario": scenario,
            "connections": connections,
            "rounds": len(group),
            "rps": statistics.median(r["rps"] for r in group),
            "rps_min": min(r["rps"] for r in group),
            "rps_max": max(r["rps"] for r in group),
            "p50_ms": statistics.median(r["p50_us"] for r in group) / 1000,
            "p99_ms": statistics.median(r["p99_us"] for r in group) / 1000,
            "errors": sum(r["errors"] for r in group),
            "requests": requests,
            "replayed": sum(r["replayed"] for r in group),
            "transactions_per_request": per_request(group, "transactions") if counted else None,
            "wal_commits_per_request": per_request(group, "wal_commits") if counted else None,
            "wal_syncs_per_request": per_request(group, "wal_syncs") if counted else None,
            "wal_bytes_per_request": per_request(group, "wal_bytes") if counted else None,
            "statements_per_request": per_request(group, "statements") if known and counted else None,
        })
    rows.sort(key=lambda r: (r["connections"], ORDER.index(r["scenario"])))
    bases = {r["connections"]: r["rps"] for r in rows if r["scenario"] == "baseline"}
    for row in rows:
        base = bases.get(row["connections"])
        row["ratio"] = round(row["rps"] / base, 3) if base else None
        row["target"] = TARGETS.get(row["scenario"])
        row["meets_target"] = None if row["target"] is None or row["ratio"] is None else row["ratio"] >= row["target"]
    errors = sum(row["errors"] for row in rows)
    counted = any(row["transactions_per_request"] is not None for row in rows)
    lines = [
        f"Machine: {machine}",
        f"Database: {database} (the app's item table; the records of every scenario but the Redis ones)",
        "",
        "| scenario | connections | requests/s (median, min-max) | p50 ms | p99 ms | ratio to baseline | target |"
        + (" transactions | WAL commits | WAL flushes | WAL bytes | statements |" if counted else "") + " errors |",
        "|---|---:|---:|---:|---:|---:|---:|" + ("---:|---:|---:|---:|---:|" if counted else "") + "---:|",
    ]
    for row in rows:
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}"
        target = "" if row["target"] is None else f">= {row['target']:.2f}" + (" ok" if row["meets_target"] else " MISSED")
        counts = ""
        if counted:
            counts = (f" {number(row['transactions_per_request'])} | {number(row['wal_commits_per_request'])} | "
                      f"{number(row['wal_syncs_per_request'])} | {number(row['wal_bytes_per_request'], 0)} | "
                      f"{number(row['statements_per_request'])} |")
        lines.append(
            f"| {row['scenario']} | {row['connections']} | {row['rps']:.0f} ({row['rps_min']:.0f}-{row['rps_max']:.0f}) | "
            f"{row['p50_ms']:.2f} | {row['p99_ms']:.2f} | {ratio} | {target} |{counts} {row['errors']} |")
    lines.append("")
    against = against_competitor(rows)
    if against:
        lines += ["Against the competitor's build of the same endpoint, same run (medians):", "",
                  "| ours | connections | ours requests/s | competitor's | competitor requests/s | ours / competitor's |"
                  f" aim (>= {COMPETITOR_AIM}) |",
                  "|---|---:|---:|---|---:|---:|---|"]
        for a in against:
            lines.append(f"| {a['ours']} | {a['connections']} | {a['ours_rps']:.0f} | {a['theirs']} | {a['theirs_rps']:.0f} | "
                         f"{a['ratio']:.2f} | {'met' if a['ratio'] >= COMPETITOR_AIM else 'missed'} |")
        lines.append("")
    if counted:
        lines.append(
            "Per request: transactions committed in the scenario's database (pg_stat_database.xact_commit, read-only "
            "ones included), commit records and bytes written to the WAL over the run (pg_walinspect) and the times "
            "the WAL was flushed to disk (pg_stat_wal.wal_sync; concurrent commits share a flush) - the whole "
            "server's, so other activity on it counts too), statements (pg_stat_statements, when preloaded).")
    else:
        lines.append(f"Transactions, WAL and statements per request: absent (PostgreSQL's statistics, not read on {database}).")
    lines += [
        "floor-leased and floor-atomic: the starter switched off and, around the same endpoint, the least any "
        "store could write for the mode's guarantees (bench.floor, FloorFilter): the round trips and commits alone.",
        "leased-alone: LEASED with each claim and completion written alone (idempotency.jdbc.write-batch-size=1), against leased, "
        "whose concurrent claims and completions share statements.",
        "competitor and competitor-replay: another library's build of the same endpoint (BENCH_COMPETITOR_JAR), its first "
        "executions and its replays, on a database of its own like every scenario.",
        "Errors in measured runs: " + str(errors) + ("" if errors == 0 else "  (a run with errors is not a result)"),
    ]
    table = "\n".join(lines)
    print()
    print(table)
    with open(out_prefix + ".md", "w") as md:
        md.write(table + "\n")
    with open(out_prefix + ".json", "w") as out:
        json.dump({"machine": machine, "database": database, "scenarios": rows, "against_competitor": against,
                   "runs": runs, "errors": errors}, out, indent=2)
    print(f"\nWrote {out_prefix}.json and {out_prefix}.md")


def against_competitor(rows):
    medians = {(r["scenario"], r["connections"]): r["rps"] for r in rows}
    against = []
    for connections in sorted({r["connections"] for r in rows}):
        for ours, theirs in AGAINST_COMPETITOR:
            if (ours, connections) in medians and (theirs, connections) in medians:
                ratio = medians[(ours, connections)] / medians[(theirs, connections)]
                against.append({"ours": ours, "theirs": theirs, "connections": connections,
                                "ours_rps": medians[(ours, connections)], "theirs_rps": medians[(theirs, connections)],
                                "ratio": round(ratio, 3)})
    return against


def per_request(group, counter):
    return sum(r.get(counter, 0) for r in group) / sum(r["requests"] for r in group)


def number(value, decimals=2):
    return "n/a" if value is None else f"{value:.{decimals}f}"


if __name__ == "__main__":
    main(*sys.argv[1:])
