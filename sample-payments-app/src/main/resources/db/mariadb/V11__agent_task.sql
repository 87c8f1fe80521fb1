-- A2A tasks, keyed by their task id: PENDING -> IN_PROGRESS -> COMPLETED or FAILED. A task that
-- failed transiently goes back to IN_PROGRESS on its next attempt; a COMPLETED task keeps its
-- result and a finally FAILED one its failure, for retries that come after the idempotency record.
-- input and result are TEXT, not VARCHAR(8000): two of those in utf8mb4 would pass the 65535 bytes
-- a MariaDB row may hold outside its BLOB and TEXT columns.
CREATE TABLE agent_task (
    id             VARCHAR(128)             NOT NULL PRIMARY KEY,
    agent_id       VARCHAR(128),
    skill          VARCHAR(64),
    input          TEXT                     NOT NULL,
    state          VARCHAR(16)              NOT NULL,
    attempts       INTEGER                  NOT NULL,
    result         TEXT,
    failure_kind   VARCHAR(16),
    failure_detail VARCHAR(500),
    created_at     DATETIME(6)              NOT NULL,
    updated_at     DATETIME(6)              NOT NULL,
    CONSTRAINT agent_task_state_ck CHECK (state IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED')),
    CONSTRAINT agent_task_failure_ck CHECK (failure_kind IN ('FINAL', 'TRANSIENT'))
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

-- One row per run of a task's work, so that a second run would show.
CREATE TABLE agent_task_attempt (
    task_id     VARCHAR(128)             NOT NULL,
    attempt     INTEGER                  NOT NULL,
    outcome     VARCHAR(16)              NOT NULL,
    started_at  DATETIME(6)              NOT NULL,
    finished_at DATETIME(6)             ,
    CONSTRAINT agent_task_attempt_pk PRIMARY KEY (task_id, attempt),
    CONSTRAINT agent_task_attempt_task_fk FOREIGN KEY (task_id) REFERENCES agent_task (id),
    CONSTRAINT agent_task_attempt_outcome_ck CHECK (outcome IN ('RUNNING', 'COMPLETED', 'FAILED_FINAL',
        'FAILED_TRANSIENT'))
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
