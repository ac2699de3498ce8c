//! A request read from JSON — the API's body, the Python package's arguments — with every fault
//! stated in the caller's terms ([`JsonFault`] is [`Worded`]): which key, what it must be, and what
//! the caller wrote, quoted as written (`"rows": 99999999999999999999 is too large (at most
//! 4294967295)`, `rows must be a whole number, not "x"`).
//!
//! serde_json checks the text (its syntax faults have a line and column); a deserializer of this
//! module's own then reads the request from the values it found, so no Rust type name or serde
//! wording reaches a caller, and a number keeps the text it was written as.

use super::surface::{Surface, Value, Worded};
use super::{excerpt, quote};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use serde::Deserialize;
use std::fmt;

/// The name of the newtype a type deserializes to be handed a number's text as written (as bytes,
/// through `visit_bytes`) by this module's reader; other deserializers hand it the value itself
/// (`visit_newtype_struct`). See `number_list`'s numbers.
pub const NUMBER_TEXT: &str = "$plysolve::input::json::NumberText";

/// Reads `json` as a `T` (a request: a JSON object).
pub fn read<T: DeserializeOwned>(json: &[u8]) -> Result<T, JsonFault> {
    let tree = parse(json)?;
    deserialize(&tree)
}

/// A `T` from the values of `tree`, its faults placed; a key given under two of its names (serde's
/// `alias`: `"moves"` and `"played"`) is refused naming both, not as one key given twice.
fn deserialize<T: DeserializeOwned>(tree: &Json) -> Result<T, JsonFault> {
    T::deserialize(Node(tree)).map_err(|f| names_of_one_key::<T>(f, tree).at(None, tree))
}

/// `fault`, a key of the object `tree` given again, restated with the names it was given under:
/// the same name twice, or two names of one key — the key's own when the caller wrote it, else
/// the earlier key that a `T` of those two keys alone refuses as given twice.
fn names_of_one_key<T: DeserializeOwned>(mut fault: JsonFault, tree: &Json) -> JsonFault {
    let (Kind::RepeatedKey(second), [Step::Key(key)], Json::Object(entries)) =
        (&fault.kind, &fault.path[..], tree)
    else {
        return fault;
    };
    let given = |name: &str| entries.iter().filter(|(k, _)| k == name).count();
    let second = second.clone();
    if given(&second) > 1 {
        fault.path = vec![Step::Key(second)];
        return fault;
    }
    let Some(last) = entries.iter().position(|(k, _)| *k == second) else {
        return fault;
    };
    let first = if *key != second && given(key) == 1 {
        Some(key.clone())
    } else {
        // The second name's value is never read (serde refuses the key before it): an empty
        // list stands for it (not `null`, which would count as no key at all), so a large value
        // is not copied once per key tried.
        entries[..last].iter().find_map(|(k, v)| {
            let stand_in = Json::List(Vec::new());
            let pair = Json::Object(vec![(k.clone(), v.clone()), (second.clone(), stand_in)]);
            let refused = T::deserialize(Node(&pair)).err()?;
            matches!(refused.kind, Kind::RepeatedKey(_)).then(|| k.clone())
        })
    };
    match first {
        Some(first) => JsonFault {
            kind: Kind::OtherName(second),
            path: vec![Step::Key(first)],
            found: None,
        },
        None => fault,
    }
}

/// Reads `json` as a `T` and, from the keys named in `extra`, an `E` beside it: a front end's own
/// keys in the object of a game's request (the player's `seed` and `level`).
pub fn read_beside<T: DeserializeOwned, E: DeserializeOwned>(
    json: &[u8],
    extra: &'static [&'static str],
) -> Result<(T, E), JsonFault> {
    let tree = parse(json)?;
    let Json::Object(entries) = &tree else {
        return Err(JsonFault::new(Kind::Expected(Expected::Object)).at(None, &tree));
    };
    let (theirs, ours): (Vec<_>, Vec<_>) = entries
        .iter()
        .cloned()
        .partition(|(key, _)| extra.contains(&key.as_str()));
    let (ours, theirs) = (Json::Object(ours), Json::Object(theirs));
    let request = deserialize::<T>(&ours).map_err(|mut f| {
        if let Kind::UnknownKey(keys) = &mut f.kind {
            keys.extend(extra.iter().copied());
        }
        f
    })?;
    let beside = deserialize::<E>(&theirs)?;
    Ok((request, beside))
}

/// The values of a JSON text, numbers as written, object keys in order (repeated ones too).
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(String),
    Text(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// The values of `json`, checked by serde_json; each number then takes its text from the input.
fn parse(json: &[u8]) -> Result<Json, JsonFault> {
    let mut tree: Json = serde_json::from_slice(json).map_err(|e| {
        JsonFault::new(Kind::Syntax {
            message: syntax_message(&e),
            line: e.line(),
            column: e.column(),
        })
    })?;
    let mut numbers = number_texts(json);
    fill_numbers(&mut tree, &mut numbers);
    Ok(tree)
}

/// serde_json's message for a syntax fault, without the place it appends (kept apart).
fn syntax_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&place).unwrap_or(&text).to_string()
}

/// The number tokens of valid JSON text, in order (strings skipped).
fn number_texts(json: &[u8]) -> impl Iterator<Item = String> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < json.len() {
            match json[i] {
                b'"' => {
                    i += 1;
                    while json[i] != b'"' {
                        i += if json[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    while i < json.len()
                        && matches!(json[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                    {
                        i += 1;
                    }
                    return Some(String::from_utf8_lossy(&json[start..i]).into_owned());
                }
                _ => i += 1,
            }
        }
        None
    })
}

/// Gives each number of `tree`, in the order of the text, the next of `texts`.
fn fill_numbers(tree: &mut Json, texts: &mut impl Iterator<Item = String>) {
    match tree {
        Json::Number(text) => *text = texts.next().unwrap_or_default(),
        Json::List(items) => items.iter_mut().for_each(|item| fill_numbers(item, texts)),
        Json::Object(entries) => entries
            .iter_mut()
            .for_each(|(_, value)| fill_numbers(value, texts)),
        Json::Null | Json::Bool(_) | Json::Text(_) => {}
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Values;
        impl<'de> Visitor<'de> for Values {
            type Value = Json;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            // The text comes from the input afterwards (`fill_numbers`).
            fn visit_u64<E>(self, _: u64) -> Result<Json, E> {
                Ok(Json::Number(String::new()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Json, E> {
                Ok(Json::Number(String::new()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Json, E> {
                Ok(Json::Number(String::new()))
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::Text(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::List(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Json::Object(entries))
            }
        }
        d.deserialize_any(Values)
    }
}

impl Json {
    /// The value as `surface`'s caller wrote it: JSON text (numbers as written, never re-printed
    /// from a float), or for Python a literal of its own (`True`, `None`, `[1, 2]`). Whole: the
    /// message that shows it cuts it to [`QUOTED_CHARS`](super::QUOTED_CHARS).
    fn written(&self, surface: Surface) -> String {
        let mut out = String::new();
        self.write(surface, &mut out);
        out
    }

    /// Appends [`Self::written`]'s text to `out`.
    fn write(&self, surface: Surface, out: &mut String) {
        let python = surface == Surface::Python;
        let (comma, colon) = if python { (", ", ": ") } else { (",", ":") };
        match self {
            Json::Null if python => out.push_str("None"),
            Json::Bool(true) if python => out.push_str("True"),
            Json::Bool(false) if python => out.push_str("False"),
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(text) => out.push_str(text),
            Json::Text(text) => out.push_str(&string_literal(text)),
            Json::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(comma);
                    }
                    item.write(surface, out);
                }
                out.push(']');
            }
            Json::Object(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(comma);
                    }
                    out.push_str(&string_literal(key));
                    out.push_str(colon);
                    value.write(surface, out);
                }
                out.push('}');
            }
        }
    }
}

/// `text` as a JSON string literal (also a Python one).
fn string_literal(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// What a value must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// A whole number of a range (a count, a seed, a size).
    Whole,
    /// Any number.
    Number,
    /// A string.
    Text,
    /// True or false.
    Bool,
    /// A list of exactly this many items.
    List(usize),
    /// An object of keys and values (a request).
    Object,
    /// One of these words.
    Word(&'static [&'static str]),
    /// As the request type states it (a value of several forms: "one text or a list of texts").
    Described(String),
}

impl Expected {
    fn worded(&self, surface: Surface) -> String {
        let python = surface == Surface::Python;
        match self {
            Expected::Whole => "a whole number".to_string(),
            Expected::Number => "a number".to_string(),
            Expected::Text if python => "a str".to_string(),
            Expected::Text => "a string".to_string(),
            Expected::Bool if python => "True or False".to_string(),
            Expected::Bool => "true or false".to_string(),
            Expected::List(n) => format!("a list of {n}"),
            Expected::Object if python => "a dict".to_string(),
            Expected::Object => "an object of keys and values".to_string(),
            Expected::Word(words) => format!("one of {}", one_of(words, |w| format!("\"{w}\""))),
            Expected::Described(what) => what.clone(),
        }
    }
}

/// `items` written by `write`, joined with commas: `"auto", "memo", "table"`.
fn one_of(items: &[&str], write: impl Fn(&str) -> String) -> String {
    items
        .iter()
        .map(|i| write(i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What is wrong with the JSON or the request it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Not JSON (serde_json's message and place).
    Syntax {
        message: String,
        line: usize,
        column: usize,
    },
    /// A value of another kind than the request takes there.
    Expected(Expected),
    /// A whole number past the largest the request takes there.
    TooLarge(String),
    /// A whole number below the smallest the request takes there.
    TooSmall(String),
    /// A number with a fraction or an exponent where a whole number is taken.
    NotWhole,
    /// A key the request does not have (the keys it has).
    UnknownKey(Vec<&'static str>),
    /// A key the request must have.
    MissingKey(&'static str),
    /// A key given twice (the name it was given under the second time, once known).
    RepeatedKey(String),
    /// The key at fault given under another name too (`"played"` beside `"moves"`): the name
    /// written second.
    OtherName(String),
}

/// A JSON request that cannot be read: what is wrong, where (the key, the item of a list) and what
/// the caller wrote there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonFault {
    kind: Kind,
    /// From the request down to the value at fault: keys, and items of lists (from 0).
    path: Vec<Step>,
    /// The value at fault as the caller wrote it, once known.
    found: Option<Json>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Item(usize),
}

impl Eq for Json {}

impl JsonFault {
    fn new(kind: Kind) -> Self {
        JsonFault {
            kind,
            path: Vec::new(),
            found: None,
        }
    }

    /// The fault seen from one level up: under `step` (`None` at the top), the value there
    /// `value` (the value at fault, when the fault was raised about it and not inside it).
    fn at(mut self, step: Option<Step>, value: &Json) -> Self {
        if self.found.is_none() && self.path.is_empty() {
            self.found = Some(value.clone());
        }
        if let Some(step) = step {
            self.path.insert(0, step);
        }
        self
    }

    /// Where the fault is, as `surface` names it (a key as the caller wrote it, cut and escaped):
    /// `"moves" item 2`, `heaps item 1`; `None` for the request itself.
    fn place(&self, surface: Surface) -> Option<String> {
        let mut place: Option<String> = None;
        for step in &self.path {
            place = Some(match (step, place) {
                (Step::Key(key), None) => named(surface, key),
                (Step::Key(key), Some(p)) => format!("{p} key {}", quote(key)),
                (Step::Item(i), None) => format!("item {}", i + 1),
                (Step::Item(i), Some(p)) => format!("{p} item {}", i + 1),
            });
        }
        place
    }

    /// Whether the request as a whole is at fault (not JSON, or not an object): what no Python
    /// caller can send, since the package writes the JSON.
    pub fn is_of_the_whole(&self) -> bool {
        self.path.is_empty()
    }
}

impl Worded for JsonFault {
    fn worded(&self, surface: Surface) -> String {
        let found = self
            .found
            .as_ref()
            .map(|v| quote(&v.written(surface)))
            .unwrap_or_default();
        let written = self
            .found
            .as_ref()
            .map(|v| v.written(surface))
            .unwrap_or_default();
        let place = self.place(surface);
        // The value with its key, as the caller wrote it: `"rows": 7`, `rows=7`, `item 2: 7`.
        let setting = || match (&self.path[..], &place) {
            ([Step::Key(key)], _) => surface.setting(key, Value::Written(&written)),
            (_, Some(place)) => format!("{place}: {}", excerpt(written.as_bytes())),
            (_, None) => excerpt(written.as_bytes()),
        };
        let subject = place.clone().unwrap_or_else(|| "the request".to_string());
        match &self.kind {
            Kind::Syntax { message, .. } if surface == Surface::Python => {
                format!("the arguments are not JSON: {message}")
            }
            Kind::Syntax {
                message,
                line,
                column,
            } => format!("the request is not JSON: {message} (line {line}, column {column})"),
            Kind::Expected(expected) => format!(
                "{subject} must be {}, not {found}",
                expected.worded(surface)
            ),
            Kind::TooLarge(max) => format!("{} is too large (at most {max})", setting()),
            // A count's own check says what it takes (levels 1 to 8, sizes 1 to 6): the reader
            // says only what no count can be.
            Kind::TooSmall(min) if min == "0" => format!("{} must not be negative", setting()),
            Kind::TooSmall(min) => format!("{} is too small (at least {min})", setting()),
            Kind::NotWhole => format!("{} is not a whole number", setting()),
            Kind::UnknownKey(keys) => {
                let known = one_of(keys, |k| surface.name(k));
                match surface {
                    Surface::Python => {
                        format!("unknown argument {subject} (the arguments are {known})")
                    }
                    _ => format!("unknown key {subject} (the keys are {known})"),
                }
            }
            Kind::MissingKey(key) => format!("{} is missing", surface.name(key)),
            Kind::RepeatedKey(_) => format!("{subject} is given twice"),
            Kind::OtherName(other) => format!(
                "{} is another name for {subject}, which is given too: give one of them",
                named(surface, other)
            ),
        }
    }
}

/// A key as `surface` names it, cut and escaped as written input is: the caller may have written any
/// text as a key.
fn named(surface: Surface, key: &str) -> String {
    surface.name(&excerpt(key.as_bytes()))
}

impl fmt::Display for JsonFault {
    /// The API's wording (the others: [`Worded::worded`]).
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.worded(Surface::Api))
    }
}

impl std::error::Error for JsonFault {}

/// serde's faults, as the request types raise them. Their messages are what a value must be: a type's
/// `expecting` (a value of several forms says what they are: `one text ("2-4 4-5") or a list of
/// texts`), which is also what serde passes to `custom` when no form fits.
impl de::Error for JsonFault {
    fn custom<T: fmt::Display>(message: T) -> Self {
        JsonFault::new(Kind::Expected(Expected::Described(message.to_string())))
    }

    fn invalid_type(_: de::Unexpected, expected: &dyn de::Expected) -> Self {
        JsonFault::new(Kind::Expected(Expected::Described(expected.to_string())))
    }

    fn invalid_value(_: de::Unexpected, expected: &dyn de::Expected) -> Self {
        JsonFault::new(Kind::Expected(Expected::Described(expected.to_string())))
    }

    fn invalid_length(_: usize, expected: &dyn de::Expected) -> Self {
        JsonFault::new(Kind::Expected(Expected::Described(expected.to_string())))
    }

    fn unknown_variant(_: &str, expected: &'static [&'static str]) -> Self {
        JsonFault::new(Kind::Expected(Expected::Word(expected)))
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        JsonFault {
            path: vec![Step::Key(field.to_string())],
            ..JsonFault::new(Kind::UnknownKey(expected.to_vec()))
        }
    }

    fn missing_field(field: &'static str) -> Self {
        JsonFault::new(Kind::MissingKey(field))
    }

    fn duplicate_field(field: &'static str) -> Self {
        JsonFault {
            path: vec![Step::Key(field.to_string())],
            ..JsonFault::new(Kind::RepeatedKey(String::new()))
        }
    }
}

/// One value of the tree, as a serde deserializer whose faults are [`JsonFault`]s.
#[derive(Clone, Copy)]
struct Node<'a>(&'a Json);

impl<'a> Node<'a> {
    fn expected<T>(self, expected: Expected) -> Result<T, JsonFault> {
        Err(JsonFault::new(Kind::Expected(expected)))
    }

    /// The whole number written here, within `min..=max`.
    fn whole(self, min: i128, max: i128) -> Result<i128, JsonFault> {
        let Json::Number(text) = self.0 else {
            return self.expected(Expected::Whole);
        };
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(JsonFault::new(Kind::NotWhole));
        }
        match text.parse::<i128>() {
            Ok(n) if n > max => Err(JsonFault::new(Kind::TooLarge(max.to_string()))),
            Ok(n) if n < min => Err(JsonFault::new(Kind::TooSmall(min.to_string()))),
            Ok(n) => Ok(n),
            Err(_) if text.starts_with('-') => Err(JsonFault::new(Kind::TooSmall(min.to_string()))),
            Err(_) => Err(JsonFault::new(Kind::TooLarge(max.to_string()))),
        }
    }
}

/// Deserializes one whole-number type through [`Node::whole`].
macro_rules! whole {
    ($($method:ident $visit:ident $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
            let n = self.whole(<$t>::MIN as i128, <$t>::MAX as i128)?;
            visitor.$visit(n as $t)
        }
    )*};
}

impl<'de, 'a> Deserializer<'de> for Node<'a> {
    type Error = JsonFault;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Null => visitor.visit_unit(),
            Json::Bool(b) => visitor.visit_bool(*b),
            Json::Number(text) => {
                if let Ok(n) = text.parse::<u64>() {
                    visitor.visit_u64(n)
                } else if let Ok(n) = text.parse::<i64>() {
                    visitor.visit_i64(n)
                } else {
                    visitor.visit_f64(text.parse::<f64>().unwrap_or(f64::NAN))
                }
            }
            Json::Text(text) => visitor.visit_str(text),
            Json::List(items) => visitor.visit_seq(Items::new(items)),
            Json::Object(entries) => visitor.visit_map(Entries::new(entries)),
        }
    }

    whole!(deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16, deserialize_u32 visit_u32 u32,
        deserialize_u64 visit_u64 u64, deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16,
        deserialize_i32 visit_i32 i32, deserialize_i64 visit_i64 i64);

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Number(text) => visitor.visit_f64(text.parse().unwrap_or(f64::NAN)),
            _ => self.expected(Expected::Number),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Bool(b) => visitor.visit_bool(*b),
            _ => self.expected(Expected::Bool),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Text(text) => visitor.visit_str(text),
            _ => self.expected(Expected::Text),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::List(items) => visitor.visit_seq(Items::new(items)),
            _ => self.expected(Expected::Described("a list".to_string())),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::List(items) if items.len() == len => visitor.visit_seq(Items::new(items)),
            _ => self.expected(Expected::List(len)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Object(entries) => Entries::new(entries).visit(visitor),
            _ => self.expected(Expected::Object),
        }
    }

    /// A request's object: a key of the request set to `null` (once) counts as not given, so every
    /// optional key reads `null` as its default alike (`"size": null` is the default size, as
    /// `"misere": null` is `false`); any other key set to `null` is refused as any other value.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Object(entries) => Entries {
                absent_if_null: fields,
                ..Entries::new(entries)
            }
            .visit(visitor),
            _ => self.expected(Expected::Object),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Text(text) if variants.contains(&text.as_str()) => visitor.visit_enum(Word(text)),
            _ => self.expected(Expected::Word(variants)),
        }
    }

    /// A number as written, for a type that asks for its text ([`NUMBER_TEXT`]); any other
    /// newtype is its value.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, JsonFault> {
        match self.0 {
            Json::Number(text) if name == NUMBER_TEXT => visitor.visit_bytes(text.as_bytes()),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct tuple_struct identifier ignored_any
    }
}

/// A word naming a unit variant (a strategy, a detail).
struct Word<'a>(&'a str);

impl<'de, 'a> EnumAccess<'de> for Word<'a> {
    type Error = JsonFault;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), JsonFault> {
        let de: de::value::StrDeserializer<JsonFault> = self.0.into_deserializer();
        Ok((seed.deserialize(de)?, self))
    }
}

impl<'de, 'a> VariantAccess<'de> for Word<'a> {
    type Error = JsonFault;

    fn unit_variant(self) -> Result<(), JsonFault> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _: S) -> Result<S::Value, JsonFault> {
        Err(JsonFault::new(Kind::Expected(Expected::Described(
            "a word alone".to_string(),
        ))))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, JsonFault> {
        Err(JsonFault::new(Kind::Expected(Expected::Described(
            "a word alone".to_string(),
        ))))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, JsonFault> {
        Err(JsonFault::new(Kind::Expected(Expected::Described(
            "a word alone".to_string(),
        ))))
    }
}

/// The items of a list, each fault placed at its item.
struct Items<'a> {
    items: std::iter::Enumerate<std::slice::Iter<'a, Json>>,
}

impl<'a> Items<'a> {
    fn new(items: &'a [Json]) -> Self {
        Items {
            items: items.iter().enumerate(),
        }
    }
}

impl<'de, 'a> SeqAccess<'de> for Items<'a> {
    type Error = JsonFault;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, JsonFault> {
        match self.items.next() {
            None => Ok(None),
            Some((i, item)) => seed
                .deserialize(Node(item))
                .map(Some)
                .map_err(|f| f.at(Some(Step::Item(i)), item)),
        }
    }
}

/// The entries of an object, each fault placed at its key.
struct Entries<'a> {
    all: &'a [(String, Json)],
    entries: std::slice::Iter<'a, (String, Json)>,
    value: Option<&'a (String, Json)>,
    /// The keys read so far, as written.
    read: Vec<&'a str>,
    /// Keys skipped, as if not given, when set to `null` once (a request's own keys).
    absent_if_null: &'static [&'static str],
}

impl<'a> Entries<'a> {
    fn new(entries: &'a [(String, Json)]) -> Self {
        Entries {
            all: entries,
            entries: entries.iter(),
            value: None,
            read: Vec::new(),
            absent_if_null: &[],
        }
    }
}

/// Whether `(key, value)` of the object `all` counts as not given: a key of `absent_if_null`, set
/// to `null`, and given once.
fn absent(all: &[(String, Json)], absent_if_null: &[&str], (key, value): &(String, Json)) -> bool {
    *value == Json::Null
        && absent_if_null.contains(&key.as_str())
        && all.iter().filter(|(k, _)| k == key).count() == 1
}

impl Entries<'_> {
    /// The entries given to `visitor`; a key given again names, besides the key (the first name
    /// the request knows it by), the name it was given under the second time.
    fn visit<'de, V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, JsonFault> {
        visitor.visit_map(&mut self).map_err(|mut fault| {
            if let Kind::RepeatedKey(second) = &mut fault.kind {
                *second = self.read.last().copied().unwrap_or_default().to_string();
            }
            fault
        })
    }
}

impl<'de, 'a> MapAccess<'de> for Entries<'a> {
    type Error = JsonFault;

    fn next_key_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, JsonFault> {
        let (all, keys) = (self.all, self.absent_if_null);
        let Some(entry) = self.entries.find(|e| !absent(all, keys, e)) else {
            return Ok(None);
        };
        self.value = Some(entry);
        self.read.push(&entry.0);
        let key: de::value::StrDeserializer<JsonFault> = entry.0.as_str().into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, JsonFault> {
        let (key, value) = self.value.take().expect("a value after its key");
        seed.deserialize(Node(value))
            .map_err(|f| f.at(Some(Step::Key(key.clone())), value))
    }
}
