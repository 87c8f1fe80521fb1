"""Turns the wrk results of bench/run.sh into a table: per scenario and number of connections the
median over the interleaved rounds, its ratio to the baseline's median at the same number of
connections, and the targets of SPEC 9 (stated for PostgreSQL; shown for every LEASED first
execution and every replay, whatever the store). The last argument names the database the sample
ran on (PostgreSQL unless given)."""
import json
import statistics
import sys

LEASED_TARGET = 0.60
TARGETS = {"leased": LEASED_TARGET, "atomic": 0.80, "replay": 1.00,
           "redis-leased": LEASED_TARGET, "redis-replay": 1.00, "cluster-leased": LEASED_TARGET,
           "cluster-replay": 1.00, "cluster-wait": LEASED_TARGET, "redis-fsync": LEASED_TARGET}
ORDER = ["baseline", "leased", "atomic", "replay", "redis-leased", "redis-replay", "cluster-leased",
         "cluster-replay", "cluster-wait", "redis-fsync", "storm", "cluster-storm"]
DATABASE_SCENARIOS = ("leased", "atomic", "replay", "storm")
STORES = {"baseline": "none", "redis-leased": "Redis", "redis-replay": "Redis",
          "cluster-leased": "Redis Cluster", "cluster-replay": "Redis Cluster", "cluster-storm": "Redis Cluster",
          "cluster-wait": "Redis Cluster, WAIT 1 replica", "redis-fsync": "Redis, appendfsync always"}
STORMS = ("storm", "cluster-storm")


def main(results_path, out_prefix, machine, storms_json, database="PostgreSQL"):
    for scenario in DATABASE_SCENARIOS:
        STORES[scenario] = database
    runs = [json.loads(line) for line in open(results_path) if line.strip()]
    for run in runs:
        run["rps"] = run["requests"] / (run["duration_us"] / 1e6)
        run["errors"] = run["socket_errors"] + run["status_errors"]
    groups = {}
    for run in runs:
        groups.setdefault((run["scenario"], run["connections"]), []).append(run)
    rows = []
    for (scenario, connections), group in groups.items():
        rows.append({
            "scenario": scenario,
            "store": STORES.get(scenario, ""),
            "connections": connections,
            "rounds": len(group),
            "rps": statistics.median(r["rps"] for r in group),
            "rps_min": min(r["rps"] for r in group),
            "rps_max": max(r["rps"] for r in group),
            "p50_ms": statistics.median(r["p50_us"] for r in group) / 1000,
            "p99_ms": statistics.median(r["p99_us"] for r in group) / 1000,
            "errors": sum(r["errors"] for r in group),
            "requests": sum(r["requests"] for r in group),
            "replayed": sum(r["replayed"] for r in group),
            "statuses": merge(r["statuses"] for r in group),
        })
    rows.sort(key=lambda r: (r["connections"] if r["scenario"] not in STORMS else 10**6, ORDER.index(r["scenario"])))
    baseline = {r["connections"]: r["rps"] for r in rows if r["scenario"] == "baseline"}
    for row in rows:
        base = baseline.get(row["connections"])
        row["ratio"] = round(row["rps"] / base, 3) if base else None
        row["target"] = TARGETS.get(row["scenario"])
        row["meets_target"] = None if row["target"] is None or row["ratio"] is None else row["ratio"] >= row["target"]
    storms = json.loads(storms_json)
    for storm in storms.values():
        storm["one_execution_per_key"] = (storm["keys"] > 0
                                          and storm["keys"] == storm["payments"] == storm["gateway_charges"])
    errors = sum(row["errors"] for row in rows)
    lines = [
        f"Machine: {machine}",
        f"Database: {database} (the sample's own tables; the records of leased, atomic, replay and storm)",
        "",
        "| scenario | store | connections | requests/s (median, min-max) | p50 ms | p99 ms | ratio to baseline | target | errors | replayed |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        ratio = "" if row["ratio"] is None or row["scenario"] in STORMS else f"{row['ratio']:.2f}"
        target = "" if row["target"] is None else f">= {row['target']:.2f}" + (" ok" if row["meets_target"] else " MISSED")
        lines.append(
            f"| {row['scenario']} | {row['store']} | {row['connections']} | {row['rps']:.0f} ({row['rps_min']:.0f}-{row['rps_max']:.0f}) | "
            f"{row['p50_ms']:.2f} | {row['p99_ms']:.2f} | {ratio} | {target} | {row['errors']} | "
            f"{row['replayed']} of {row['requests']} |")
    lines.append("")
    for name, storm in storms.items():
        lines.append(
            f"Storm ({name}, {STORES.get(name, '')}): {storm['keys']} keys, each hit by many of 32 concurrent connections "
            f"-> {storm['payments']} payments, {storm['gateway_charges']} gateway charge attempts: "
            + ("one execution per key" if storm["one_execution_per_key"] else "NOT one execution per key"))
    lines.append("Errors in measured runs: " + str(errors) + ("" if errors == 0 else "  (a run with errors is not a result)"))
    table = "\n".join(lines)
    print()
    print(table)
    with open(out_prefix + ".md", "w") as md:
        md.write(table + "\n")
    with open(out_prefix + ".json", "w") as out:
        json.dump({"machine": machine, "database": database, "scenarios": rows, "runs": runs, "storms": storms, "errors": errors}, out,
                  indent=2)
    print(f"\nWrote {out_prefix}.json and {out_prefix}.md")


def merge(status_maps):
    merged = {}
    for statuses in status_maps:
        for status, count in statuses.items():
            merged[status] = merged.get(status, 0) + count
    return merged


if __name__ == "__main__":
    main(*sys.argv[1:])
