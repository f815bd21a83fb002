using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace GamePlatform.Kit
{
    /// <summary>A JSON number as written (int64 ids and decimal amounts stay exact).</summary>
    public sealed class JsonNumber
    {
        public readonly string Text;
        public JsonNumber(string text) { Text = text; }
        public bool IsInteger
        {
            get
            {
                int i = Text.StartsWith("-") ? 1 : 0;
                if (i >= Text.Length) return false;
                for (; i < Text.Length; i++) if (Text[i] < '0' || Text[i] > '9') return false;
                return true;
            }
        }
        public double ToDouble() { return double.Parse(Text, NumberStyles.Float, CultureInfo.InvariantCulture); }
        public override string ToString() { return Text; }
    }

    /// <summary>A JSON object: members in their order.</summary>
    public sealed class JsonObject : List<KeyValuePair<string, object>>
    {
        public object Get(string key)
        {
            foreach (var m in this) if (m.Key == key) return m.Value;
            return null;
        }
        public void Add(string key, object value) { Add(new KeyValuePair<string, object>(key, value)); }
    }

    /// <summary>A small strict JSON reader and writer for the kit's typed bodies and tests: objects are
    /// JsonObject, arrays List&lt;object&gt;, strings string, true/false bool, null null, numbers JsonNumber.
    /// Never used to verify a call: 5.3 is over the raw bytes.</summary>
    public static class Json
    {
        public static object Parse(string s)
        {
            int i = 0;
            Ws(s, ref i);
            object v = Value(s, ref i, 0);
            Ws(s, ref i);
            if (i != s.Length) throw new FormatException("invalid JSON: trailing text at " + i);
            return v;
        }

        static void Ws(string s, ref int i)
        {
            while (i < s.Length && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
        }

        static bool Peek(string s, ref int i, char c)
        {
            if (i < s.Length && s[i] == c) { i++; return true; }
            return false;
        }

        static void Expect(string s, ref int i, char c)
        {
            if (!Peek(s, ref i, c)) throw new FormatException("invalid JSON: '" + c + "' expected at " + i);
        }

        static int Digits(string s, ref int i)
        {
            int start = i;
            while (i < s.Length && s[i] >= '0' && s[i] <= '9') i++;
            return i - start;
        }

        static object Value(string s, ref int i, int depth)
        {
            if (depth > 64) throw new FormatException("invalid JSON: nested too deep");
            if (i >= s.Length) throw new FormatException("invalid JSON: unexpected end");
            char c = s[i];
            if (c == '{')
            {
                i++;
                var o = new JsonObject();
                Ws(s, ref i);
                if (Peek(s, ref i, '}')) return o;
                do
                {
                    Ws(s, ref i);
                    if (i >= s.Length || s[i] != '"') throw new FormatException("invalid JSON: member name expected at " + i);
                    string k = Str(s, ref i);
                    Ws(s, ref i);
                    Expect(s, ref i, ':');
                    Ws(s, ref i);
                    o.Add(k, Value(s, ref i, depth + 1));
                    Ws(s, ref i);
                } while (Peek(s, ref i, ','));
                Expect(s, ref i, '}');
                return o;
            }
            if (c == '[')
            {
                i++;
                var a = new List<object>();
                Ws(s, ref i);
                if (Peek(s, ref i, ']')) return a;
                do
                {
                    Ws(s, ref i);
                    a.Add(Value(s, ref i, depth + 1));
                    Ws(s, ref i);
                } while (Peek(s, ref i, ','));
                Expect(s, ref i, ']');
                return a;
            }
            if (c == '"') return Str(s, ref i);
            if (string.CompareOrdinal(s, i, "true", 0, 4) == 0) { i += 4; return true; }
            if (string.CompareOrdinal(s, i, "false", 0, 5) == 0) { i += 5; return false; }
            if (string.CompareOrdinal(s, i, "null", 0, 4) == 0) { i += 4; return null; }
            int start = i;
            Peek(s, ref i, '-');
            if (!Peek(s, ref i, '0'))
            {
                if (i >= s.Length || s[i] < '1' || s[i] > '9') throw new FormatException("invalid JSON: value expected at " + i);
                Digits(s, ref i);
            }
            if (Peek(s, ref i, '.') && Digits(s, ref i) == 0) throw new FormatException("invalid JSON: digits expected");
            if (i < s.Length && (s[i] == 'e' || s[i] == 'E'))
            {
                i++;
                if (!Peek(s, ref i, '+')) Peek(s, ref i, '-');
                if (Digits(s, ref i) == 0) throw new FormatException("invalid JSON: digits expected");
            }
            return new JsonNumber(s.Substring(start, i - start));
        }

        static string Str(string s, ref int i)
        {
            i++;
            var b = new StringBuilder();
            for (;;)
            {
                if (i >= s.Length) throw new FormatException("invalid JSON: unterminated string");
                char c = s[i++];
                if (c == '"') return b.ToString();
                if (c < 0x20) throw new FormatException("invalid JSON: control character in string");
                if (c != '\\') { b.Append(c); continue; }
                if (i >= s.Length) throw new FormatException("invalid JSON: unterminated escape");
                char e = s[i++];
                switch (e)
                {
                    case '"': b.Append('"'); break;
                    case '\\': b.Append('\\'); break;
                    case '/': b.Append('/'); break;
                    case 'b': b.Append('\b'); break;
                    case 'f': b.Append('\f'); break;
                    case 'n': b.Append('\n'); break;
                    case 'r': b.Append('\r'); break;
                    case 't': b.Append('\t'); break;
                    case 'u':
                        if (i + 4 > s.Length) throw new FormatException("invalid JSON: bad \\u escape");
                        int cp;
                        if (!int.TryParse(s.Substring(i, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out cp))
                            throw new FormatException("invalid JSON: bad \\u escape");
                        b.Append((char)cp);
                        i += 4;
                        break;
                    default: throw new FormatException("invalid JSON: bad escape");
                }
            }
        }

        /// <summary>JSON text of a value built from JsonObject, IList, string, bool, numbers, JsonNumber and null.</summary>
        public static string Write(object v)
        {
            var b = new StringBuilder();
            Write(v, b);
            return b.ToString();
        }

        static void Write(object v, StringBuilder b)
        {
            if (v == null) b.Append("null");
            else if (v is string) Quote((string)v, b);
            else if (v is bool) b.Append((bool)v ? "true" : "false");
            else if (v is JsonObject)
            {
                b.Append('{');
                bool first = true;
                foreach (var m in (JsonObject)v)
                {
                    if (!first) b.Append(',');
                    first = false;
                    Quote(m.Key, b);
                    b.Append(':');
                    Write(m.Value, b);
                }
                b.Append('}');
            }
            else if (v is System.Collections.IList)
            {
                b.Append('[');
                bool first = true;
                foreach (var x in (System.Collections.IList)v)
                {
                    if (!first) b.Append(',');
                    first = false;
                    Write(x, b);
                }
                b.Append(']');
            }
            else b.Append(Convert.ToString(v, CultureInfo.InvariantCulture));
        }

        static void Quote(string s, StringBuilder b)
        {
            b.Append('"');
            foreach (char c in s)
            {
                if (c == '"' || c == '\\') b.Append('\\').Append(c);
                else if (c < 0x20) b.Append("\\u").Append(((int)c).ToString("x4"));
                else b.Append(c);
            }
            b.Append('"');
        }
    }
}
