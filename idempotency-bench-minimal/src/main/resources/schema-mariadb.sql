-- schema.sql for MariaDB (the mariadb profile): the same tables, keys compared byte for byte.
CREATE TABLE IF NOT EXISTS item (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name VARCHAR(200) NOT NULL,
    quantity INT NOT NULL
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

-- The key rows of the floor scenarios (bench.floor, FloorFilter): a primary key and nothing else
-- indexed.
CREATE TABLE IF NOT EXISTS floor_record (
    k VARCHAR(255) NOT NULL PRIMARY KEY,
    status VARCHAR(16) NOT NULL,
    response_status INT
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
