using System;
using System.Collections;
using System.Collections.Generic;
using System.Text;
using System.Text.RegularExpressions;

namespace GamePlatform.Kit
{
    /// <summary>A body that is not what the spec describes; Field names the wrong field (dot path).</summary>
    public sealed class BodyException : Exception
    {
        public readonly string Field;
        public BodyException(string field, string problem) : base(field + ": " + problem) { Field = field; }
    }

    /// <summary>Tolerant typed readers: numbers spelled as strings and strings spelled as numbers are read.</summary>
    sealed class Fields
    {
        static readonly Regex IntRe = new Regex("^-?[0-9]{1,19}$");
        static readonly Regex DecimalRe = new Regex("^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$");
        public readonly JsonObject O;
        readonly string prefix;

        public Fields(object v, string prefix)
        {
            O = v as JsonObject;
            if (O == null) throw new BodyException(prefix == "" ? "body" : prefix, "must be a JSON object");
            this.prefix = prefix;
        }

        public static Fields Parse(byte[] body)
        {
            try { return new Fields(Json.Parse(Encoding.UTF8.GetString(body)), ""); }
            catch (FormatException) { throw new BodyException("body", "is not valid JSON"); }
        }

        string Path(string k) { return prefix == "" ? k : prefix + "." + k; }

        public string OptString(string k)
        {
            object v = O.Get(k);
            if (v == null) return null;
            if (v is string || v is JsonNumber) return v.ToString();
            throw new BodyException(Path(k), "must be a string");
        }

        public string String(string k)
        {
            var v = OptString(k);
            if (v == null) throw new BodyException(Path(k), "is required");
            return v;
        }

        public long? OptLong(string k)
        {
            var t = OptString(k);
            if (t == null) return null;
            long v;
            if (!IntRe.IsMatch(t)) throw new BodyException(Path(k), "must be an integer");
            if (!long.TryParse(t, out v)) throw new BodyException(Path(k), "is out of range");
            return v;
        }

        public long Long(string k)
        {
            var v = OptLong(k);
            if (v == null) throw new BodyException(Path(k), "is required");
            return v.Value;
        }

        /// <summary>A decimal as its exact text: 0.99 and "0.99" both give "0.99", never a binary float.</summary>
        public string OptDecimal(string k)
        {
            var t = OptString(k);
            if (t != null && !DecimalRe.IsMatch(t)) throw new BodyException(Path(k), "must be a decimal number");
            return t;
        }
    }

    public sealed class Product
    {
        public string ProductCode, ChannelSkuCode;
        public long Quantity;
        public override string ToString() { return Quantity + " x " + ProductCode; }
    }

    public sealed class Attach
    {
        public string GameServerId, GameRoleId, GameExt;
    }

    /// <summary>A payment (2.4) or refund (2.5) notification. Check TrxType (IsPayment, IsRefund): a refund must
    /// never be treated as a payment. Handle it idempotently by TrxNo. Unknown enum values are kept as numbers and
    /// unknown fields ignored (section 9). Optional fields are null when absent.</summary>
    public sealed class Notification
    {
        /// <summary>Section 2.7 trxType. Only payment and refund are notified today; others may come.</summary>
        public const long TrxPayment = 0, TrxSupplement = 1, TrxRefund = 2;

        public long NotifyId, NotifyTime, AppId, TrxNo, TrxType, Platform, Channel, PaymentType, Status, SuccessTime;
        public long? OriginalTrxNo;
        public string UserId, Currency, TotalAmount, OutTrxNo, Region, ClientAmount, ClientCurrency, ClientRegion, BankTrxNo;
        public List<Product> Products = new List<Product>();
        public Attach Attach;
        /// <summary>The whole parsed body, unknown fields included.</summary>
        public JsonObject Raw;

        public bool IsPayment { get { return TrxType == TrxPayment; } }
        public bool IsRefund { get { return TrxType == TrxRefund; } }

        /// <summary>Parses a body after CallbackVerifier.Verify accepted the same raw bytes.</summary>
        public static Notification Parse(byte[] body)
        {
            var f = Fields.Parse(body);
            var n = new Notification { Raw = f.O };
            var products = f.O.Get("products") as IList;
            if (products == null) throw new BodyException("products", "must be an array");
            for (int i = 0; i < products.Count; i++)
            {
                var p = new Fields(products[i], "products." + i);
                n.Products.Add(new Product { ProductCode = p.String("productCode"), Quantity = p.Long("quantity"), ChannelSkuCode = p.OptString("channelSkuCode") ?? "" });
            }
            n.NotifyId = f.Long("notifyId");
            n.NotifyTime = f.Long("notifyTime");
            n.AppId = f.Long("appId");
            n.UserId = f.String("userId");
            n.TrxNo = f.Long("trxNo");
            n.OriginalTrxNo = f.OptLong("originalTrxNo");
            n.TrxType = f.Long("trxType");
            n.Platform = f.Long("platform");
            n.Channel = f.Long("channel");
            n.PaymentType = f.Long("paymentType");
            n.Currency = f.String("currency");
            n.TotalAmount = f.OptDecimal("totalAmount");
            if (n.TotalAmount == null) throw new BodyException("totalAmount", "is required");
            n.Status = f.Long("status");
            n.SuccessTime = f.Long("successTime");
            n.OutTrxNo = f.OptString("outTrxNo");
            n.Region = f.OptString("region");
            n.ClientAmount = f.OptDecimal("clientAmount");
            n.ClientCurrency = f.OptString("clientCurrency");
            n.ClientRegion = f.OptString("clientRegion");
            n.BankTrxNo = f.OptString("bankTrxNo");
            object attach = f.O.Get("attach");
            if (attach is string) // tolerated: attach sent as JSON text
            {
                try { attach = Json.Parse((string)attach); } catch (FormatException) { attach = null; }
            }
            if (attach is JsonObject)
            {
                var a = new Fields(attach, "attach");
                n.Attach = new Attach { GameServerId = a.OptString("gameServerId") ?? "", GameRoleId = a.OptString("gameRoleId") ?? "", GameExt = a.OptString("gameExt") ?? "" };
            }
            return n;
        }
    }

    /// <summary>The 4.10 pre-order check request; Quantity is the number bought in this one order.</summary>
    public sealed class PreOrderCheck
    {
        public string RoleId, ServerId, ProductSkuCode, Extras;
        public long Quantity;

        public static PreOrderCheck Parse(byte[] body)
        {
            var f = Fields.Parse(body);
            var p = new PreOrderCheck { RoleId = f.String("roleId"), ServerId = f.String("serverId"), ProductSkuCode = f.String("productSkuCode"), Quantity = f.Long("quantity"), Extras = f.OptString("extras") };
            if (p.Quantity < 1) throw new BodyException("quantity", "must be at least 1");
            return p;
        }
    }

    /// <summary>Section 7 pre-order check codes. Custom codes must not reuse these.</summary>
    public static class PreOrderCode
    {
        public const int InvalidRoleId = 101, ServerErrorRetryLater = 102, ProductNotFound = 103, KeepGameOnline = 104,
            PurchaseLimitReached = 105, TransactionInProgress = 106, ServerError = 107, RoleNotEligible = 112,
            TransactionInProgress1Min = 113, TransactionInProgress2Min = 114, TransactionInProgress3Min = 115;
    }

    /// <summary>A 2.6 role; null optional fields are sent as null.</summary>
    public sealed class Role
    {
        public string UserId, RoleId, Name, Avatar, ServerId, ServerName;
        public long? RoleLv;
    }

    /// <summary>The game's answer to a platform call (4.7-4.10): an HTTP status and a JSON body.</summary>
    public sealed class Answer
    {
        public readonly int Status;
        public readonly JsonObject Body;
        Answer(int status, JsonObject body) { Status = status; Body = body; }
        public string Json() { return Kit.Json.Write(Body); }

        static JsonObject Obj(params object[] kv)
        {
            var o = new JsonObject();
            for (int i = 0; i < kv.Length; i += 2) o.Add((string)kv[i], kv[i + 1]);
            return o;
        }

        /// <summary>4.7: HTTP 200 accepts the notification.</summary>
        public static Answer AcceptNotification() { return new Answer(200, Obj("code", "SUCCESS", "msg", "ok")); }

        /// <summary>4.7: a processing failure, 500 or a 4xx (the platform retries), in the body format the spec lists.</summary>
        public static Answer RejectNotification(int status, string msg)
        {
            if (status != 500 && (status < 400 || status > 499)) throw new ArgumentException("500 or a 4xx");
            return new Answer(status, Obj("code", "SUCCESS", "msg", msg));
        }

        /// <summary>4.8: HTTP 200 and the role; UserId (the platform user id) is required or the payment is blocked.</summary>
        public static Answer RoleQuery(Role r)
        {
            if (string.IsNullOrEmpty(r.UserId) || string.IsNullOrEmpty(r.RoleId)) throw new ArgumentException("UserId and RoleId are required");
            return new Answer(200, Obj("userId", r.UserId, "roleId", r.RoleId, "name", r.Name, "avatar", r.Avatar, "roleLv", r.RoleLv, "serverId", r.ServerId, "serverName", r.ServerName));
        }

        /// <summary>4.9: HTTP 200 with results; no role gives HTTP 401 with empty results.</summary>
        public static Answer RoleList(IList<Role> roles)
        {
            if (roles.Count == 0) return new Answer(401, Obj("code", 401, "msg", "No role found.", "detail", "the user has no role", "results", new List<object>()));
            var results = new List<object>();
            foreach (var r in roles) results.Add(Obj("roleId", r.RoleId, "name", r.Name, "avatar", r.Avatar, "roleLv", r.RoleLv, "serverId", r.ServerId, "serverName", r.ServerName));
            return new Answer(200, Obj("code", 200, "msg", "success", "detail", "", "results", results));
        }

        /// <summary>4.10: HTTP 200 allows the order.</summary>
        public static Answer PreOrderAllow() { return new Answer(200, Obj("code", 200, "msg", "success", "detail", "")); }

        /// <summary>4.10: HTTP 400 blocks it with a section 7 code or the game's own; msg is player-facing (null: the front end's text).</summary>
        public static Answer PreOrderReject(int code, string detail, string msg = null) { return new Answer(400, Obj("code", code, "msg", msg, "detail", detail)); }
    }
}
