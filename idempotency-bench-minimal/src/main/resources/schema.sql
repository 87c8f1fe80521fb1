CREATE TABLE IF NOT EXISTS item (
    id BIGSERIAL PRIMARY KEY,
    name VARCHAR(200) NOT NULL,
    quantity INT NOT NULL
);

-- The key rows of the floor scenarios (bench.floor, FloorFilter): a primary key and nothing else
-- indexed, and room on each page, so that the update after the method is a HOT update.
CREATE TABLE IF NOT EXISTS floor_record (
    k VARCHAR(255) PRIMARY KEY,
    status VARCHAR(16) NOT NULL,
    response_status INT
) WITH (fillfactor = 70);
