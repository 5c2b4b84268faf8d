// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LessonLibrary: the lessons the window offers — the shipped lesson files, then those the user opened (one
// per id), the one-line errors of the files that failed, and the lessons dock that lists them.

#include "LessonFile.h"

#include <QObject>
#include <QStringList>

class QDockWidget;

namespace specdec::gui {

class LessonPanel;
class MainWindow;

class LessonLibrary : public QObject
{
    Q_OBJECT
public:
    /// Loads the shipped lessons and adds the (hidden) lessons dock to `window`'s left side.
    explicit LessonLibrary(MainWindow *window, QObject *parent = nullptr);

    const QList<app::LessonFile> &files() const { return m_files; }
    /// The lines of the files that failed, until takeErrors() hands them over to be shown once.
    const QStringList &errors() const { return m_errors; }
    void addError(const QString &line) { m_errors << line; }
    QStringList takeErrors();
    LessonPanel *panel() const { return m_panel; }
    QDockWidget *dock() const { return m_dock; }

    /// Loads a lesson file and adds it to the list (replacing one with the same id); returns its index.
    /// Throws specdec::Error with the file's one-line error.
    int add(const QString &path);
    /// Lesson `index` current in the panel and the dock shown beside the run; false when there is no such lesson.
    bool show(int index);
    /// The lessons in the panel and the dock's title in the current language.
    void retranslate();

signals:
    /// The panel's Apply: the user asks for lesson `index`'s demonstration.
    void applyRequested(int index);

private:
    MainWindow *m_window;
    LessonPanel *m_panel;
    QDockWidget *m_dock;
    QList<app::LessonFile> m_files;
    QStringList m_errors;
};

} // namespace specdec::gui
