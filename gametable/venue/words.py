"""The venue board's words in English and Chinese: one catalogue, kept apart from the panel's so
it can join the panel's own catalogue later. Keys are stable; the page looks them up by key."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Venue board", "tables": "Tables", "online": "online", "offline": "offline",
        "no_game": "no game", "turn": "to play", "winner": "won", "draw": "draw", "watch": "watch",
        "league": "League", "all_games": "all games", "player": "Player", "rating": "Rating",
        "played": "Played", "won": "Won", "history": "History", "export": "Export",
        "export_json": "games (JSON)", "export_csv": "results (CSV)", "score": "score", "out": "out",
        "lives": "lives", "hp": "health", "influence": "influence", "coins": "coins", "cards": "cards",
        "health": "health", "team": "team", "mode": "mode", "phase": "phase", "language": "中文",
        "tv": "TV layout", "board": "Board", "game": "Game", "table": "Table", "result": "Result",
        "first": "1st", "lost": "lost", "provisional": "provisional (under 5 games)", "round": "Round", "bye": "bye", "awarded": "awarded by the host",
        "single_elimination": "single elimination", "round_robin": "round robin", "swiss": "Swiss",
        "my_profile": "My venue profile", "make_profile": "Make my profile",
        "profile_move": "Scan this code with your other phone to carry your profile there (keep it private).",
        "venue_host": "Venue host", "log_in": "Log in", "start_tournament": "Start the tournament",
        "t_name": "tournament name", "t_players": "players, one a line: a profile's name or id (p-…), or a guest's name", "t_tables": "tables: t1, t2",
        "replay": "replay", "award": "award to",
        "buchholz": "Bh", "buchholz_long": "Buchholz: the points of every opponent met (the first tie-break)",
        "sonneborn_berger": "SB", "sonneborn_berger_long": "Sonneborn-Berger: the points of the opponents beaten (after head-to-head)",
        "log_out": "Log out", "logged_in_as": "Logged in as", "owner": "the owner",
        "staff_keys": "Staff keys", "staff_name": "staff member's name", "make_key": "Make a key",
        "staff_why": "Give each member of staff a key of their own; revoke it when they leave. Changes are logged with who made them.",
        "made": "Made", "revoke": "Revoke", "revoked": "revoked", "key_for": "Key for {name}:",
        "key_once": "(shown this once: give it to them now)", "changes": "Changes made by hand",
        "when": "When", "by": "By", "change": "Change",
        "change_rename": "renamed", "change_merge": "merged into", "change_delete": "deleted a person",
        "change_void": "voided game", "change_correct": "corrected", "change_staff_key": "made a staff key for",
        "change_revoke": "revoked the staff key of",
        "new_name": "new name", "rename": "Rename", "merge_other": "another player's id (e.g. tess)",
        "merge_in": "Merge into this player", "delete_person": "Delete this person",
        "delete_confirm": "Delete this person? Their games stay, without their name, out of the league.",
        "void": "Void", "void_reason": "Why is this game voided?", "done": "Done.",
        "guest": "a guest: no venue profile", "your_match": "Your match: {tournament}, round {round}, at table {table}, against {others}.",
        "your_next_match": "Your next match: {tournament}, round {round}, against {others}: waiting for a free table.",
    },
    "zh": {
        "title": "场馆总览", "tables": "桌台", "online": "在线", "offline": "离线",
        "no_game": "空闲", "turn": "行动中", "winner": "获胜", "draw": "平局", "watch": "观战",
        "league": "排行榜", "all_games": "全部游戏", "player": "玩家", "rating": "积分",
        "played": "场次", "won": "胜场", "history": "战绩", "export": "导出",
        "export_json": "对局（JSON）", "export_csv": "成绩（CSV）", "score": "得分", "out": "出局",
        "lives": "生命", "hp": "体力", "influence": "影响力", "coins": "金币", "cards": "手牌数",
        "health": "体力", "team": "队", "mode": "模式", "phase": "阶段", "language": "English",
        "tv": "大屏模式", "board": "总览", "game": "游戏", "table": "桌台", "result": "结果",
        "first": "第一", "lost": "负", "provisional": "暂定（不足 5 局）", "round": "轮次", "bye": "轮空", "awarded": "主持判定",
        "single_elimination": "单败淘汰", "round_robin": "循环赛", "swiss": "瑞士轮",
        "my_profile": "我的场馆档案", "make_profile": "创建档案",
        "profile_move": "用另一部手机扫描此码即可带走档案（请勿给他人看）。",
        "venue_host": "场馆主持", "log_in": "登录", "start_tournament": "开始比赛",
        "t_name": "比赛名称", "t_players": "玩家，每行一位：档案名或编号（p-…），或访客的名字", "t_tables": "桌台：t1, t2",
        "replay": "重赛", "award": "判给",
        "buchholz": "对手分", "buchholz_long": "对手分：所有已交手对手的积分之和（第一破同分规则）",
        "sonneborn_berger": "索伯分", "sonneborn_berger_long": "索伯分：所胜对手的积分之和（先比直接胜负）",
        "log_out": "退出登录", "logged_in_as": "当前登录：", "owner": "店主",
        "staff_keys": "员工密钥", "staff_name": "员工姓名", "make_key": "生成密钥",
        "staff_why": "每位员工一把自己的密钥，离职时吊销。手动修改都会记录是谁做的。",
        "made": "生成于", "revoke": "吊销", "revoked": "已吊销", "key_for": "{name} 的密钥：",
        "key_once": "（只显示这一次，请现在交给对方）", "changes": "手动修改记录",
        "when": "时间", "by": "操作人", "change": "修改",
        "change_rename": "改名", "change_merge": "合并到", "change_delete": "删除了一位玩家",
        "change_void": "作废对局", "change_correct": "更正", "change_staff_key": "生成员工密钥：",
        "change_revoke": "吊销员工密钥：",
        "new_name": "新名字", "rename": "改名", "merge_other": "另一位玩家的编号（例如 tess）",
        "merge_in": "合并到这位玩家", "delete_person": "删除此人",
        "delete_confirm": "删除此人？对局保留，但不再显示其名字，也不计入排行榜。",
        "void": "作废", "void_reason": "为什么作废这一局？", "done": "已完成。",
        "guest": "访客：没有场馆档案", "your_match": "你的比赛：{tournament} 第 {round} 轮，在 {table} 号桌，对手 {others}。",
        "your_next_match": "你的下一场：{tournament} 第 {round} 轮，对手 {others}，正在等空桌。",
    },
}
LANGUAGES = tuple(WORDS)


def language(asked: str | None, accept: str | None) -> str:
    """``?lang=`` if it names one we have, else the first of the browser's languages we have."""
    if asked in WORDS:
        return str(asked)
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in WORDS:
            return code
    return "en"
