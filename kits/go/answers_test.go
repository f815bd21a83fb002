package gamekit

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

func optText(m map[string]interface{}, k string) *string {
	if v, ok := m[k].(string); ok {
		return &v
	}
	return nil
}

func optInt(m map[string]interface{}, k string) *int64 {
	if v, ok := m[k].(json.Number); ok {
		i, _ := strconv.ParseInt(string(v), 10, 64)
		return &i
	}
	return nil
}

func roleOf(m map[string]interface{}) Role {
	text := func(k string) string { s, _ := m[k].(string); return s }
	return Role{UserID: text("userId"), RoleID: text("roleId"), Name: text("name"), Avatar: text("avatar"),
		RoleLv: optInt(m, "roleLv"), ServerID: optText(m, "serverId"), ServerName: optText(m, "serverName")}
}

func TestAnswerVectors(t *testing.T) {
	for _, c := range load(t).Answers {
		a := c.Args
		var got Answer
		switch c.Kind {
		case "acceptNotification":
			got = AcceptNotification()
		case "rejectNotification":
			status, _ := strconv.Atoi(string(a["status"].(json.Number)))
			got = RejectNotification(status, a["msg"].(string))
		case "role":
			var err error
			if got, err = RoleAnswer(roleOf(a)); err != nil {
				t.Fatal(err)
			}
		case "roleList":
			var roles []Role
			for _, r := range a["roles"].([]interface{}) {
				roles = append(roles, roleOf(r.(map[string]interface{})))
			}
			got = RoleListAnswer(roles)
		case "preOrderAllow":
			got = PreOrderAllow()
		case "preOrderReject":
			code, _ := strconv.Atoi(string(a["code"].(json.Number)))
			got = PreOrderReject(code, a["detail"].(string), optText(a, "msg"))
		}
		d := json.NewDecoder(bytes.NewReader(got.JSON()))
		d.UseNumber()
		var body interface{}
		if err := d.Decode(&body); err != nil {
			t.Fatal(err)
		}
		if got.Status != c.Expect.Status || !reflect.DeepEqual(body, c.Expect.Body) {
			t.Errorf("%s: got %d %s", c.Description, got.Status, got.JSON())
		}
	}
}
