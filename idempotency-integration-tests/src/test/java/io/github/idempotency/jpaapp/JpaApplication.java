package io.github.idempotency.jpaapp;

import java.net.URI;
import java.util.Map;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * An application shaped like the ones that adopt the starter: JPA entities whose tables
 * Hibernate's {@code ddl-auto} manages, a {@code @Transactional} service, and a controller that
 * answers with a long {@code Location} and a long body.
 */
@SpringBootApplication
public class JpaApplication {

	/**
	 * Length of the {@code Location} header of a created memo.
	 */
	public static final int LOCATION_LENGTH = 2_000;

	/**
	 * Length of the body that answers a created memo.
	 */
	public static final int BODY_LENGTH = 100 * 1024;

	/**
	 * The body that answers the creation of a memo: every byte value, over and over.
	 * @param id the memo
	 * @return the body
	 */
	public static byte[] body(long id) {
		byte[] body = new byte[BODY_LENGTH];
		for (int i = 0; i < body.length; i++) {
			body[i] = (byte) (i + id);
		}
		return body;
	}

	@Service
	static class MemoService {

		private final Memos memos;

		MemoService(Memos memos) {
			this.memos = memos;
		}

		@Transactional
		Memo create(String text) {
			return this.memos.save(new Memo(text));
		}

	}

	@RestController
	static class MemoController {

		private final MemoService service;

		MemoController(MemoService service) {
			this.service = service;
		}

		@Idempotent(operation = "create-memo")
		@PostMapping("/memos")
		ResponseEntity<byte[]> create(@RequestBody Map<String, String> request) {
			Memo memo = this.service.create(request.get("text"));
			String location = "/memos/" + memo.getId() + "?trail=";
			location += "x".repeat(LOCATION_LENGTH - location.length());
			return ResponseEntity.created(URI.create(location))
				.contentType(MediaType.APPLICATION_OCTET_STREAM)
				.body(body(memo.getId()));
		}

	}

}
