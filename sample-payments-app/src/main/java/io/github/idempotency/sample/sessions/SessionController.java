package io.github.idempotency.sample.sessions;

import java.net.URI;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * The sessions API: {@code POST /sessions} signs a user in on a device, keyed by the device's
 * current session (see {@link SessionKeys}), so a login while a session is active gets that
 * session's token instead of a second session.
 */
@RestController
@RequestMapping("/sessions")
public class SessionController {

	/**
	 * Name of the idempotent operation that starts sessions.
	 */
	public static final String CREATE_OPERATION = "create-session";

	private final SessionService sessions;

	SessionController(SessionService sessions) {
		this.sessions = sessions;
	}

	@Idempotent(operation = CREATE_OPERATION, key = "@sessionKeys.keyFor(#request)")
	@PostMapping
	public ResponseEntity<IssuedSession> create(@RequestBody CreateSessionRequest request) {
		SessionService.SessionStart start = this.sessions.start(request);
		URI location = URI.create("/sessions/" + start.session().id());
		return (start.started() ? ResponseEntity.created(location) : ResponseEntity.ok().location(location))
			.body(start.session());
	}

	@GetMapping("/{id}")
	public SessionStatus get(@PathVariable String id) {
		return this.sessions.find(id);
	}

	@DeleteMapping("/{id}")
	public ResponseEntity<Void> end(@PathVariable String id) {
		this.sessions.end(id);
		return ResponseEntity.noContent().build();
	}

}
