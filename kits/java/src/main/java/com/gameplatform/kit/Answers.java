package com.gameplatform.kit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The game's answers to the platform's calls (4.7-4.10): an HTTP status and a JSON body. */
public final class Answers {
  /** Section 7 pre-order check codes. Custom codes must not reuse these. */
  public static final int INVALID_ROLE_ID = 101, SERVER_ERROR_RETRY_LATER = 102, PRODUCT_NOT_FOUND = 103,
      KEEP_GAME_ONLINE = 104, PURCHASE_LIMIT_REACHED = 105, TRANSACTION_IN_PROGRESS = 106, SERVER_ERROR = 107,
      ROLE_NOT_ELIGIBLE = 112, TRANSACTION_IN_PROGRESS_1_MIN = 113, TRANSACTION_IN_PROGRESS_2_MIN = 114,
      TRANSACTION_IN_PROGRESS_3_MIN = 115;

  public static final class Answer {
    public final int status;
    public final Map<String, Object> body;

    Answer(int status, Map<String, Object> body) {
      this.status = status;
      this.body = body;
    }

    public String json() {
      return Json.write(body);
    }
  }

  /** A 2.6 role; null optional fields (roleLv, serverId for 4.8, serverName) are sent as null. */
  public static final class Role {
    public String userId, roleId, name, avatar, serverId, serverName;
    public Long roleLv;
  }

  private Answers() {}

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
    return m;
  }

  /** 4.7: HTTP 200 accepts the notification. */
  public static Answer acceptNotification() {
    return new Answer(200, map("code", "SUCCESS", "msg", "ok"));
  }

  /** 4.7: a processing failure, 500 or a 4xx (the platform retries), with the body format the spec lists. */
  public static Answer rejectNotification(int status, String msg) {
    if (status != 500 && (status < 400 || status > 499)) throw new IllegalArgumentException("500 or a 4xx");
    return new Answer(status, map("code", "SUCCESS", "msg", msg));
  }

  /** 4.8: HTTP 200 with the role; userId (the platform user id) is required or the payment is blocked. */
  public static Answer role(Role r) {
    if (r.userId == null || r.userId.isEmpty() || r.roleId == null || r.roleId.isEmpty())
      throw new IllegalArgumentException("userId and roleId are required");
    return new Answer(200, map("userId", r.userId, "roleId", r.roleId, "name", r.name, "avatar", r.avatar,
        "roleLv", r.roleLv, "serverId", r.serverId, "serverName", r.serverName));
  }

  /** 4.9: HTTP 200 with results; no role gives HTTP 401 with empty results. */
  public static Answer roleList(List<Role> roles) {
    if (roles.isEmpty())
      return new Answer(401, map("code", 401, "msg", "No role found.", "detail", "the user has no role", "results", List.of()));
    List<Object> results = new ArrayList<>();
    for (Role r : roles)
      results.add(map("roleId", r.roleId, "name", r.name, "avatar", r.avatar, "roleLv", r.roleLv, "serverId", r.serverId,
          "serverName", r.serverName));
    return new Answer(200, map("code", 200, "msg", "success", "detail", "", "results", results));
  }

  /** 4.10: HTTP 200 lets the order through. */
  public static Answer preOrderAllow() {
    return new Answer(200, map("code", 200, "msg", "success", "detail", ""));
  }

  /** 4.10: block (HTTP 400) with a section 7 code or the game's own; msg is player-facing (null: the front end's text). */
  public static Answer preOrderReject(int code, String detail, String msg) {
    return new Answer(400, map("code", code, "msg", msg, "detail", detail));
  }
}
