"""Turns the wrk results of bench/run.sh into a table, with each scenario's ratio to the
baseline measured at the same number of connections, and checks the targets of SPEC 9."""
import json
import sys

TARGETS = {"leased": 0.60, "atomic": 0.80, "replay": 1.00}


def main(results_path, out_prefix, machine, storm_keys, storm_payments, storm_charges):
    rows = [json.loads(line) for line in open(results_path) if line.strip()]
    baseline = {}
    for row in rows:
        row["rps"] = row["requests"] / (row["duration_us"] / 1e6)
        row["errors"] = row["socket_errors"] + row["status_errors"]
        if row["scenario"] == "baseline":
            baseline[row["connections"]] = row["rps"]
    for row in rows:
        base = baseline.get(row["connections"])
        row["ratio"] = round(row["rps"] / base, 3) if base else None
        target = TARGETS.get(row["scenario"])
        row["target"] = target
        row["meets_target"] = None if target is None or row["ratio"] is None else row["ratio"] >= target
    storm = {
        "keys": int(storm_keys or 0),
        "payments": int(storm_payments or 0),
        "gateway_charges": int(storm_charges or 0),
    }
    storm["one_execution_per_key"] = storm["keys"] > 0 and storm["keys"] == storm["payments"] == storm["gateway_charges"]
    lines = [
        f"Machine: {machine}",
        "",
        "| scenario | connections | requests/s | p50 ms | p99 ms | ratio to baseline | target | errors | replayed |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}"
        target = "" if row["target"] is None else f">= {row['target']:.2f}" + (" ok" if row["meets_target"] else " MISSED")
        lines.append(
            f"| {row['scenario']} | {row['connections']} | {row['rps']:.0f} | {row['p50_us'] / 1000:.2f} | "
            f"{row['p99_us'] / 1000:.2f} | {ratio} | {target} | {row['errors']} | {row['replayed']} |"
        )
    lines += [
        "",
        f"Storm: {storm['keys']} keys hit by 32 concurrent connections -> {storm['payments']} payments, "
        f"{storm['gateway_charges']} gateway charges: "
        + ("one execution per key" if storm["one_execution_per_key"] else "NOT one execution per key"),
    ]
    errors = sum(row["errors"] for row in rows)
    lines.append("Errors in measured runs: " + str(errors) + ("" if errors == 0 else "  (a run with errors is not a result)"))
    table = "\n".join(lines)
    print()
    print(table)
    with open(out_prefix + ".md", "w") as md:
        md.write(table + "\n")
    with open(out_prefix + ".json", "w") as out:
        json.dump({"machine": machine, "scenarios": rows, "storm": storm, "errors": errors}, out, indent=2)
    print(f"\nWrote {out_prefix}.json and {out_prefix}.md")


if __name__ == "__main__":
    main(*sys.argv[1:])
