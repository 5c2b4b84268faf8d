// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ActionRegistry: every action of the window declared once — an id, its text (a function, so a language
// change re-reads it through tr()), its shortcut and the menu it sits in. The main window owns it and builds
// its menu bar from it; the classroom's tools register through it. Nothing finds a menu by position or a dock
// by name, and a test asks the registry for duplicate shortcuts.
//
// Menus are filled in the order of their sections (0, 1, …, separated by a line), each section in the order
// its actions were added, so a tool that registers later still lands where it belongs (File ▸ sessions
// before File ▸ Quit).

#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <vector>

class QAction;
class QMenu;
class QMenuBar;

namespace specdec::gui {

enum class MenuId { File, Play, View, Language, Classroom, Help };

class ActionRegistry : public QObject
{
    Q_OBJECT
public:
    using Text = std::function<QString()>;

    /// Builds the menus of `menuBar` (File, Play, View with its Language submenu, Classroom, Help).
    explicit ActionRegistry(QMenuBar *menuBar, QObject *parent = nullptr);

    /// Declares a new action `id`; its `triggered` is the caller's to connect.
    QAction *add(const QString &id, MenuId menu, int section, Text text, const QKeySequence &shortcut = {});
    /// Declares an action another object made (a dock's toggle, a transport button's action); `text` may be
    /// empty when that object keeps the text itself.
    QAction *adopt(QAction *action, const QString &id, MenuId menu, int section, Text text = {},
                   const QKeySequence &shortcut = {});

    QAction *action(const QString &id) const;
    QMenu *menu(MenuId menu) const;
    QList<QAction *> actions() const;
    QStringList ids() const;
    /// Pairs of action ids that share a shortcut (empty when every shortcut is unique).
    QStringList duplicateShortcuts() const;

    /// Re-reads every text and menu title (on a language change).
    void retranslate();

private:
    struct Entry
    {
        QString id;
        QAction *action;
        MenuId menu;
        int section;
        Text text;
    };
    void rebuild(MenuId menu);

    std::vector<Entry> m_entries;
    std::map<MenuId, QMenu *> m_menus;
};

} // namespace specdec::gui
