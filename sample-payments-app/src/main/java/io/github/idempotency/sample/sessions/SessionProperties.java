package io.github.idempotency.sample.sessions;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of sessions.
 *
 * @param lifetime how long a session lasts from its start unless it is ended before
 */
@ConfigurationProperties("sample.sessions")
public record SessionProperties(@DefaultValue("30m") Duration lifetime) {

}
