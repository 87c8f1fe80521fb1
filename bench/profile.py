#!/usr/bin/env python3
"""Reports bench/profile.sh's run: CPU time per request by process, and the JVM's share by part."""
import json
import os
import sys
from collections import Counter

STARTER = "io.github.idempotency."
APPLICATION = "io.github.idempotency.bench."
# Frames of the web server and Spring MVC: what runs under them belongs to neither the starter
# nor the application's own code, even when the starter's filter is further down the stack.
FRAMEWORK = ("org.apache.catalina.", "org.apache.coyote.", "org.apache.tomcat.", "org.springframework.web.")
DATABASE_CLIENT = ("org.postgresql.", "com.zaxxer.hikari.", "org.springframework.jdbc.",
                   "org.springframework.transaction.")
PARTS = {
    "internal.web.": "web: capture, headers, replay",
    "internal.fingerprint.": "fingerprint",
    "internal.engine.": "engine: flow, transactions, lease",
    "internal.method.": "engine: flow, transactions, lease",
    "internal.metrics.": "metrics and observation",
    "internal.jdbc.": "store: statements and rows",
}


def stacks(path):
    """Yields the frames of each sample of an async-profiler collapsed file, leaf first, with its
    count; Java frames with dots, kernel frames ending in _[k]."""
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip().rpartition(" ")
            frames = [frame.replace("/", ".") for frame in stack.split(";")]
            yield frames[::-1], int(count)


def part(frames):
    if any(frame.startswith("CompileBroker::") for frame in frames):
        return "JVM: JIT compiler"
    if not any("." in frame and not frame.endswith("_[k]") for frame in frames):
        return "JVM: garbage collector and other native threads"
    database = kernel = False
    for frame in frames:
        if frame.endswith("_[k]"):
            kernel = True
            continue
        if frame.startswith(APPLICATION):
            return "application: its insert (round trips to PostgreSQL)" if database else "application"
        if frame.startswith(STARTER):
            rest = frame[len(STARTER):]
            name = next((label for prefix, label in PARTS.items() if rest.startswith(prefix)), "other")
            if database:
                return ("starter: its statements, system calls of the round trips" if kernel
                        else "starter: its statements, JDBC driver, pool and JdbcClient")
            return "starter: " + name
        if frame.startswith(FRAMEWORK):
            return "framework: Tomcat, Spring MVC, Jackson" + (" (socket system calls)" if kernel else "")
        if frame.startswith(DATABASE_CLIENT):
            database = True
    return "JDBC client, unattributed" if database else "JDK and other threads"


def main(out):
    runs = [json.loads(line) for line in open(os.path.join(out, "cpu.jsonl"))]
    print("| mode | requests/s | JVM CPU µs/request | PostgreSQL CPU µs/request | wrk CPU µs/request |")
    print("|---|---:|---:|---:|---:|")
    per_request = {}
    for run in runs:
        tick_us = 1e6 / run["hz"]
        n = run["requests"]
        jvm = run["java_ticks"] * tick_us / n
        pg = run["postgres_ticks"] * tick_us / n
        wrk = run["wrk_ticks"] * tick_us / n
        per_request[run["mode"]] = jvm
        rate = n / (run["duration_us"] / 1e6)
        print(f"| {run['mode']} | {rate:.0f} | {jvm:.0f} | {pg:.0f} | {wrk:.0f} |")
    print()
    for run in runs:
        mode = run["mode"]
        counts = Counter()
        for frames, count in stacks(os.path.join(out, mode + ".collapsed")):
            counts[part(frames)] += count
        total = sum(counts.values()) or 1
        print(f"JVM samples of {mode} ({total}), with the JVM's CPU per request split by them:")
        print()
        print("| part | share | µs/request |")
        print("|---|---:|---:|")
        for name, count in sorted(counts.items(), key=lambda item: -item[1]):
            print(f"| {name} | {100 * count / total:.1f} % | {per_request[mode] * count / total:.0f} |")
        print()


if __name__ == "__main__":
    main(sys.argv[1])
