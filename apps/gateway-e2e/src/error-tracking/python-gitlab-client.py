"""Drives Quitanda with python-gitlab as a GitLab user would (python-gitlab-client.e2e-spec.ts).

Arguments come from the environment: GITLAB_URL, GITLAB_TOKEN (root's), ERRORS_PROJECT_ID
(a project with ERRORS_COUNT errors already reported), NONCE (unique names). Any client
error, failed check or warning (a base URL mismatch, a truncated list) ends the process
with a traceback and a non-zero status; the last line printed on success is a JSON summary.
"""

import json
import os
import sys
import warnings

# python-gitlab reports a Link pointing elsewhere, or a list cut at one page, as warnings.
warnings.simplefilter("error")
# Sockets left to the garbage collector at exit say nothing about the client's behaviour.
warnings.simplefilter("ignore", ResourceWarning)

import gitlab  # noqa: E402  (after the warning filter, on purpose)
import requests  # noqa: E402

URL = os.environ["GITLAB_URL"]
TOKEN = os.environ["GITLAB_TOKEN"]
ERRORS_PROJECT = int(os.environ["ERRORS_PROJECT_ID"])
ERRORS_COUNT = int(os.environ["ERRORS_COUNT"])
NONCE = os.environ["NONCE"]

summary = {"python_gitlab": gitlab.__version__}


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def expect_http_error(status, call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except gitlab.exceptions.GitlabError as error:
        check(error.response_code == status, f"expected {status}, got {error.response_code}: {error}")
        return error
    raise AssertionError(f"expected HTTP {status}, the call succeeded")


gl = gitlab.Gitlab(URL, private_token=TOKEN)

# --- authentication: header, and GitLab's ?private_token= -----------------------------
gl.auth()
check(gl.user.username == "root" and gl.user.is_admin, "gl.auth() is root")
anonymous = gitlab.Gitlab(URL)
check(anonymous.http_get("/user", query_data={"private_token": TOKEN})["username"] == "root",
      "?private_token= authenticates")
expect_http_error(401, gitlab.Gitlab(URL, private_token="glpat-not-a-token").auth)

# --- users ----------------------------------------------------------------------------
created_users = [
    gl.users.create({
        "username": f"py-{NONCE}-{i}",
        "name": f"Python user {i}",
        "email": f"py-{NONCE}-{i}@example.com",
        "password": "correct horse battery",
    })
    for i in range(3)
]
all_users = gl.users.list(get_all=True, per_page=2)
user_ids = [u.id for u in all_users]
check(len(user_ids) == len(set(user_ids)), "users pages do not overlap")
check({u.id for u in created_users} <= set(user_ids), "every created user is listed")
summary["users"] = len(user_ids)
developer = created_users[0]

# --- tokens ---------------------------------------------------------------------------
token = developer.personal_access_tokens.create({"name": "python", "scopes": ["api"]})
check(token.token.startswith("glpat-"), "a new token is shown once, glpat-")
as_developer = gitlab.Gitlab(URL, private_token=token.token)
as_developer.auth()
check(as_developer.user.id == developer.id, "the new token authenticates its user")
own = as_developer.personal_access_tokens.list(get_all=True)
check([t.id for t in own] == [token.id], "a user lists their own tokens")
check(own[0].scopes == ["api"] and own[0].active, "token entity: scopes, active")
reader_token = developer.personal_access_tokens.create({"name": "reader", "scopes": ["read_api"]})
as_reader = gitlab.Gitlab(URL, private_token=reader_token.token)
expect_http_error(403, as_reader.projects.create, {"name": f"py-{NONCE}-denied"})
as_developer.personal_access_tokens.delete(reader_token.id)
expect_http_error(401, as_reader.auth)

# --- projects: offset (get_all, iterator, page) and keyset pagination --------------------
projects = [gl.projects.create({"name": f"py-{NONCE}-{i}", "description": "from python-gitlab"})
            for i in range(7)]
created_ids = {p.id for p in projects}
listed = [p.id for p in gl.projects.list(get_all=True, per_page=3)]
check(len(listed) == len(set(listed)), "project pages do not overlap")
check(created_ids <= set(listed), "get_all follows every next link")
pages = gl.projects.list(iterator=True, per_page=3)
iterated = [p.id for p in pages]
check(iterated == listed, "the iterator walks the same pages")
check(pages.total == len(listed) and pages.total_pages == -(-len(listed) // 3), "X-Total and X-Total-Pages")
second = gl.projects.list(page=2, per_page=3, get_all=False)
check([p.id for p in second] == listed[3:6], "an explicit page")
keyset = [p.id for p in gl.projects.list(pagination="keyset", order_by="id", sort="asc",
                                          per_page=3, iterator=True)]
check(keyset == sorted(listed), "keyset pagination, ascending ids")
keyset_desc = [p.id for p in gl.projects.list(pagination="keyset", order_by="id", sort="desc",
                                               per_page=3, get_all=True)]
check(keyset_desc == sorted(listed, reverse=True), "keyset pagination, descending ids")
summary["projects"] = len(listed)
project = gl.projects.get(projects[0].id)
check(project.name == f"py-{NONCE}-0" and project.web_url.startswith(URL), "project entity")
check(gl.projects.get(project.path).id == project.id, "a project by its path")
expect_http_error(404, as_developer.projects.get, project.id)

# --- members ----------------------------------------------------------------------------
project.members.create({"user_id": developer.id, "access_level": 30})
member = project.members.get(developer.id)
check(member.access_level == 30 and member.username == developer.username, "member entity")
check(developer.id in [m.id for m in project.members.list(get_all=True)], "members list")
check(as_developer.projects.get(project.id).id == project.id, "a member sees the project")
expect_http_error(403, as_developer.http_get, f"/projects/{project.id}/error_tracking/settings")
project.members.delete(developer.id)
expect_http_error(404, project.members.get, developer.id)

# --- issues -----------------------------------------------------------------------------
issue = project.issues.create({"title": "Checkout fails", "description": "Seen in **production**."})
check(issue.iid == 1 and issue.state == "opened", "issue entity")
issue.state_event = "close"
issue.save()
check(project.issues.get(issue.iid).state == "closed", "closing through save()")
closed = project.issues.list(state="closed", get_all=True)
check([i.iid for i in closed] == [issue.iid], "issues filtered by state")
issue.state_event = "reopen"
issue.title = "Checkout fails on Safari"
issue.save()
reloaded = project.issues.get(issue.iid)
check(reloaded.state == "opened" and reloaded.title == "Checkout fails on Safari", "reopen and rename")

# --- error-tracking settings (no manager in python-gitlab: its generic calls) ----------------
settings_path = f"/projects/{project.id}/error_tracking/settings"
fresh = gl.http_get(settings_path)
check(fresh["active"] is False and fresh["integrated"] is True, "a project never set up")
enabled = gl.http_put(settings_path, post_data={"active": True, "integrated": True})
check(enabled["active"] is True, "PUT enables")
invalid = expect_http_error(400, gl.http_put, settings_path, post_data={"active": "maybe", "integrated": True})
check("active is invalid" in str(invalid.error_message), "Grape's wording")
patched = gl.http_request("patch", settings_path, post_data={"active": False}).json()
check(patched["active"] is False, "PATCH disables")
gl.http_request("patch", settings_path, post_data={"active": True})

# --- client-key rotation: create, list, delete the old one -----------------------------
keys_path = f"/projects/{project.id}/error_tracking/client_keys"
(old_key,) = gl.http_list(keys_path, get_all=True)
new_key = gl.http_post(keys_path)
check(new_key["public_key"].startswith("glet_") and new_key["public_key"] in new_key["sentry_dsn"],
      "client key entity with its DSN")
check({k["id"] for k in gl.http_list(keys_path, get_all=True, per_page=1)} == {old_key["id"], new_key["id"]},
      "both keys listed, one per page")
deleted = gl.http_delete(f"{keys_path}/{old_key['id']}").json()
check(deleted["id"] == old_key["id"], "DELETE answers the deleted key")
check([k["id"] for k in gl.http_list(keys_path, get_all=True)] == [new_key["id"]], "only the new key is left")
store = f"{URL}/api/v4/error_tracking/collector/api/{project.id}/store/"
event = {"message": "after rotation", "level": "error"}
check(requests.post(store, params={"sentry_key": old_key["public_key"]}, json=event).status_code == 403,
      "the deleted key stops ingesting")
check(requests.post(store, params={"sentry_key": new_key["public_key"]}, json=event).status_code == 200,
      "the new key ingests")

# --- errors and their events through http_list (keyset cursor in Link) -------------------
errors_path = f"/projects/{ERRORS_PROJECT}/error_tracking/errors"
errors = gl.http_list(errors_path, query_data={"per_page": 2, "sort": "frequency"}, get_all=True)
check(len(errors) == ERRORS_COUNT and len({e["id"] for e in errors}) == ERRORS_COUNT,
      f"every error once across pages ({len(errors)} of {ERRORS_COUNT})")
counts = [e["count"] for e in errors]
check(counts == sorted(counts, reverse=True), "sort=frequency holds across pages")
check([e["id"] for e in gl.http_list(errors_path, iterator=True, per_page=2, sort="frequency")]
      == [e["id"] for e in errors], "iterator over errors")
top = errors[0]
events = gl.http_list(f"{errors_path}/{top['id']}/events", per_page=2, get_all=True)
check(len(events) == top["count"] and len({e["event_id"] for e in events}) == top["count"],
      "every event of the error once")
stamps = [e["timestamp"] for e in events]
check(stamps == sorted(stamps, reverse=True), "events newest first")
detail = gl.http_get(f"{errors_path}/{top['id']}")
check(detail["id"] == top["id"] and "gitlab_issue" in detail, "detailed error entity")
resolved = gl.http_put(f"{errors_path}/{top['id']}", post_data={"status": "resolved"})
check(resolved["status"] == "resolved", "resolving an error")
summary["errors"] = len(errors)
summary["events"] = len(events)

print(json.dumps(summary))
sys.stdout.flush()
